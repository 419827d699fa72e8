import type { NotifyCapability } from '../notify.shared.js';
import { Template } from './template.entity.js';
import { TemplateResolver } from './template.resolver.js';

/** Notification templates per channel, rendered with Handlebars. */
export const templatesCapability: NotifyCapability = { name: 'templates', resolvers: [TemplateResolver], entities: [Template] };
