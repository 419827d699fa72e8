import { notFound } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { type ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, keyedPageBody, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';
import { refuseUnknownChannels } from '../channels/channels.rest.js';

const NOTIFICATION_TEMPLATE = /* GraphQL */ `
  fragment NotificationTemplateFields on NotificationTemplate {
    id
    name
    version
    channels
    placeholders
    content {
      email {
        subject
        html
      }
      sms {
        body
      }
      push {
        title
        body
      }
    }
    createdAt
  }
`;

/** `content` lists only the template's channels. */
const TEMPLATE_BODY: ResponseMapping = { case: 'snake', rename: { id: 'template_id' }, withoutNulls: ['content'], lowercase: ['channels'] };

/** Template content on the spec's channels only: WhatsApp and voice content is for the graph (a 400 here, as for any unknown channel). */
function templateBody(body: Record<string, unknown>): Record<string, unknown> {
  const channels = body.channels;
  if (channels && typeof channels === 'object' && !Array.isArray(channels)) {
    refuseUnknownChannels(Object.keys(channels));
  }
  return body;
}

/** Templates: versions kept, the latest active unless a version is named. */
export const templateRoutes: Route[] = [
  {
    method: 'POST',
    path: '/templates',
    summary: 'Save a template: a new immutable version of the name (201)',
    body: [
      { name: 'name', type: 'string', required: true },
      {
        name: 'channels',
        type: 'object',
        required: true,
        description: 'email {subject, html}, sms {body}, push {title, body}; placeholders {{field}}',
      },
    ],
    example: {
      name: 'welcome',
      channels: {
        email: { subject: 'Welcome, {{first_name}}', html: '<p>Hello {{first_name}}</p>' },
        sms: { body: 'Hello {{first_name}}' },
      },
    },
    operation: /* GraphQL */ `
      mutation CreateNotificationTemplate($input: CreateNotificationTemplateInput!) {
        createNotificationTemplate(input: $input) {
          notificationTemplate {
            ...NotificationTemplateFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${NOTIFICATION_TEMPLATE}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: templateBody(body) }),
    result: (data) => data.createNotificationTemplate.notificationTemplate,
    response: TEMPLATE_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/templates',
    summary: 'The latest version of every template',
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query NotificationTemplates($first: Int, $after: String) {
        notificationTemplates(first: $first, after: $after) {
          nodes {
            ...NotificationTemplateFields
          }
          totalCount
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ query }) => connectionSlice(query),
    result: (data, { query }) => pageBody(data.notificationTemplates, query),
    response: { ...TEMPLATE_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/templates/:name/versions',
    summary: 'The versions of a template, newest first (a page)',
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query NotificationTemplateVersions($name: String!, $first: Int, $after: String) {
        notificationTemplateVersions(name: $name, first: $first, after: $after) {
          nodes {
            ...NotificationTemplateFields
          }
          totalCount
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ params, query }) => ({ name: params.name, ...connectionSlice(query) }),
    // a name with no version at all is no template
    result: (data, { query }) => {
      const versions = data.notificationTemplateVersions;
      return versions.totalCount ? keyedPageBody('versions', versions, query) : null;
    },
    response: { ...TEMPLATE_BODY, records: 'versions' },
    notFound: 'Template',
  },
  {
    method: 'GET',
    path: '/templates/:name',
    summary: 'A template: the latest version, or ?version=N',
    query: [{ name: 'version', type: 'integer' }],
    operation: /* GraphQL */ `
      query NotificationTemplate($name: String!, $version: Int) {
        notificationTemplate(name: $name, version: $version) {
          ...NotificationTemplateFields
        }
      }
      ${NOTIFICATION_TEMPLATE}
    `,
    variables: ({ params, query }) => ({ name: params.name, version: query.version }),
    result: (data, { params, query }) => {
      if (data.notificationTemplate) return data.notificationTemplate;
      // the record is the name, or that version of it
      throw notFound(query.version !== undefined ? `Template ${params.name} version ${query.version}` : `Template ${params.name}`);
    },
    response: TEMPLATE_BODY,
  },
];
