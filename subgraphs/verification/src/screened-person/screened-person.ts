import { Property } from '@mikro-orm/decorators/legacy';
import { IsOptional, MaxLength } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import { isCountryCode } from '../../../../platform/countries.js';

/**
 * The person a screening (AML) or a monitoring (watchlist) compares with the lists: a name, and the
 * date of birth and nationality that raise or lower a match's score. Shared by the two capabilities.
 */
export interface ScreenedPerson {
  fullName?: string | null;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

/** The screened person's columns; the date of birth is sealed (`sealedEntity` of the entity that extends them). */
export abstract class ScreenedPersonColumns implements ScreenedPerson {
  /** Null once the user was erased (eraseUser). */
  @Property({ type: 'text', nullable: true })
  fullName?: string | null;

  @Property({ type: 'text', nullable: true, persist: false })
  dateOfBirth?: string | null;

  /** dateOfBirth, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  dateOfBirthSealed?: string | null;

  @Property({ type: 'text', nullable: true })
  nationality?: string | null;
}

/** The screened person's input fields. */
@InputType()
export abstract class ScreenedPersonFields {
  @Field({ description: 'The person’s full name, in any script' })
  @MaxLength(500, { message: 'fullName must be at most 500 characters' })
  fullName!: string;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD: raises or lowers a match’s score' })
  @IsOptional()
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, ISO 3166-1 alpha-2 (uppercase): raises or lowers a match’s score' })
  @IsOptional()
  nationality?: string | null;
}

/** YYYY-MM-DD, a real calendar date, not in the future. */
export function dateOfBirthError(value: string, now = new Date()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !date || date.toISOString().slice(0, 10) !== value) return 'dateOfBirth must be a date in YYYY-MM-DD format';
  if (date.getTime() > now.getTime()) return 'dateOfBirth must not be in the future';
  if (Number(m[1]) < 1850) return 'dateOfBirth must be after 1850';
  return null;
}

/** Value checks of a screened person (422), each message prefixed with `prefix` (a batch subject's `subjects[3].`). */
export function screenedPersonErrors(person: ScreenedPerson, prefix = ''): string[] {
  const errors: string[] = [];
  if (!person.fullName?.trim()) errors.push(`${prefix}fullName must not be empty`);
  else if (!/\p{L}/u.test(person.fullName)) errors.push(`${prefix}fullName must contain letters`);
  if (person.dateOfBirth != null) {
    const e = dateOfBirthError(person.dateOfBirth);
    if (e) errors.push(`${prefix}${e}`);
  }
  if (person.nationality != null && !isCountryCode(person.nationality)) {
    errors.push(`${prefix}nationality must be an uppercase ISO 3166-1 alpha-2 country code`);
  }
  return errors;
}
