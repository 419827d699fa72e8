import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { UserError } from '../../../../platform/graphql/user-errors.js';

@ObjectType('OrganizationReencryption', { description: 'What a re-encryption moved to the organization’s newest data key' })
export class OrganizationReencryptionType {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field(() => Int, { description: 'The data key version everything is now encrypted with' })
  keyVersion!: number;

  @Field(() => Int, { description: 'Encrypted column values re-encrypted' })
  values!: number;

  @Field(() => Int, { description: 'Stored files re-encrypted' })
  files!: number;
}

@InputType({ description: 'The organization whose data key to rotate' })
export class RotateOrganizationDataKeyInput {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;

  @Field({
    defaultValue: true,
    description:
      'Re-encrypt what is stored with the new key at once (default); false: only new data uses it until reencryptOrganizationData',
  })
  reencrypt: boolean = true;
}

@ObjectType('RotateOrganizationDataKeyPayload', { description: 'The result of rotateOrganizationDataKey' })
export class RotateOrganizationDataKeyPayload {
  @Field(() => Int, { nullable: true, description: 'The new data key version (new data is encrypted with it from now on)' })
  keyVersion?: number | null;

  @Field(() => OrganizationReencryptionType, { nullable: true, description: 'What was re-encrypted; null when not asked' })
  reencryption?: OrganizationReencryptionType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input (an unknown organization); empty on success' })
  userErrors!: UserError[];
}

@InputType({ description: 'The organization whose stored data to re-encrypt with its newest data key' })
export class ReencryptOrganizationDataInput {
  @Field(() => ID, { description: 'The organization' })
  organizationId!: string;
}

@ObjectType('ReencryptOrganizationDataPayload', { description: 'The result of reencryptOrganizationData' })
export class ReencryptOrganizationDataPayload {
  @Field(() => OrganizationReencryptionType, { nullable: true, description: 'What was re-encrypted' })
  reencryption?: OrganizationReencryptionType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input (an unknown organization); empty on success' })
  userErrors!: UserError[];
}
