/**
 * `studio`: the typed StudioApi client every renderer module imports. It uses the Electron
 * bridge when the preload provided one, else the web host's WebSocket (token from `?token=`).
 */
import { createApiClient } from '../../../common/api/client';
import { studioContract, type StudioApi } from '../../../common/api/studio';
import type { ClientTransport } from '../../../common/api/client';
import { bridgeTransport, webSocketTransport } from '../../../common/api/transports';

declare global {
  interface Window {
    studio?: ClientTransport;
  }
}

function pickTransport(): ClientTransport {
  if (window.studio) return bridgeTransport(window.studio);
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return webSocketTransport(
    `${scheme}://${window.location.host}/api?token=${encodeURIComponent(token)}`,
  );
}

export const studio: StudioApi = createApiClient(studioContract, pickTransport());
