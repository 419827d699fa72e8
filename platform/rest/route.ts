/**
 * The route table's vocabulary: one published REST endpoint (or one Form of it) = one GraphQL
 * operation. Routes are data; `handler.ts` executes any of them and `openapi.ts` documents them.
 */

import type { ResponseMapping } from './mapping.js';
import type { FilePart } from '../graphql/upload.js';

/** JSON types a field may carry; used to document the field, never to validate it (GraphQL does). */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | { enum: readonly string[] } | { array: FieldType };

export interface Field {
  name: string;
  type: FieldType;
  required?: boolean;
  description?: string;
}

export interface FileField {
  name: string;
  required?: boolean;
  description?: string;
}

/** What a route's `variables` function receives: path params, parsed query params, known body fields, files. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, string | number>;
  body: Record<string, unknown>;
  /** The files of a multipart route, by field name (absent when not sent). */
  files: Record<string, FilePart>;
}

/** GraphQL `data` of a successful operation. */
export type OperationData = Record<string, any>;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express-style path without the `/v1` prefix (both are served), e.g. `/verifications/identity/:id`. */
  path: string;
  summary: string;
  /** JSON body fields (or text fields of a multipart route); unknown fields are dropped. Absent = the route takes no body. */
  body?: readonly Field[];
  /** A multipart route's files (`multipart/form-data`, at most 10 MB each); its text fields are `body`. */
  files?: readonly FileField[];
  /**
   * A multipart route that also takes a JSON body on the same path (a Form B without files, e.g. a
   * document URL instead of an upload): its fields. The request's content type picks the form.
   */
  json?: readonly Field[];
  /**
   * A valid body (for a route that takes one): shown in OpenAPI, and the request the generated
   * suites (tenant isolation, fuzzing) start from. Ids of other records are the caller's own there.
   */
  example?: Record<string, unknown>;
  /** JSON body limit when a route needs more than the default 2 MB (e.g. `'10mb'`); the gateway must accept it too. */
  bodyLimit?: string;
  /** Query parameters; `integer` ones are parsed (400 when not an integer), others passed as strings. */
  query?: readonly Field[];
  /** GraphQL document: one named operation plus the fragments it spreads (see fragments.ts). */
  operation: string;
  variables: (input: RouteInput) => Record<string, unknown>;
  /** Picks the response body from `data`; default: the operation's only root field. */
  result?: (data: OperationData, input: RouteInput) => unknown;
  /**
   * What the route looks up (`'Identity verification'`): a null result is then a 404 naming it and
   * the first path parameter (GraphQL lookups answer null for a record that does not exist).
   */
  notFound?: string;
  /** REST shape of the body's records (snake_case, renames…); default: GraphQL's. */
  response?: ResponseMapping;
  /**
   * A page answered as a bare array (as the spec shows it): the total the page is part of, sent as
   * the `X-Total-Count` header.
   */
  totalCount?: (data: OperationData) => number;
  /** Success status; default 200. */
  status?: number;
  /** A create-or-return route (a PUT upsert, a create that answers the active record): 201 when this holds, else `status`. */
  created?: (data: OperationData) => boolean;
}
