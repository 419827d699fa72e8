import { registerEnumType } from 'type-graphql';
import { CHANNELS } from './channel.js';

export const NotificationChannelEnum = Object.fromEntries(CHANNELS.map((c) => [c, c])) as { [K in (typeof CHANNELS)[number]]: K };
registerEnumType(NotificationChannelEnum, { name: 'NotificationChannel' });
