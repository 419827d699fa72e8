/**
 * The graph's scalars for well-known formats, from graphql-scalars (docs/graphql-conventions.md):
 * one name each across every subgraph. Use them on output fields always; on input fields where the
 * scalar's own refusal (a 400 naming the field, from the gateway's coercion rewrite) is what the
 * REST spec wants too — where it pins another status or wording, keep String and validate in the
 * service.
 */
export {
  GraphQLCountryCode as CountryCode,
  GraphQLCurrency as Currency,
  GraphQLEmailAddress as EmailAddress,
  GraphQLIP as IP,
  GraphQLJSON as JSON,
  GraphQLLocalDate as LocalDate,
  GraphQLPhoneNumber as PhoneNumber,
  GraphQLURL as URL,
} from 'graphql-scalars';
