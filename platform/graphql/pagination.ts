import { Field, Int, ArgsType } from 'type-graphql';
import { IsInt, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `page` (default 1) and `limit` (default 20, at most 100) as every list of the spec takes them. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: 1 })
  @IsInt()
  @Min(1, { message: 'page must be at least 1' })
  page: number = 1;

  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  @IsInt()
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
  limit: number = DEFAULT_PAGE_SIZE;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}
