/** The open-tracking pixel path served by the notify service (tracking.routes.ts). */
export const OPEN_PIXEL_PATH = '/track/open/:token';

export const openPixelUrl = (publicUrl: string, token: string): string => `${publicUrl.replace(/\/+$/, '')}/track/open/${token}.gif`;
