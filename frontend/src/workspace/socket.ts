// The live connection to ws/annotations/<id>/: other tabs' changes and status changes.
// It reconnects with backoff; after a reconnect the workspace checks for missed versions.

import type { SocketMessage } from "../api/types";

export interface SocketHandlers {
  message(message: SocketMessage): void;
  opened(reconnected: boolean): void;
  closed(): void;
}

export interface LiveSocket {
  close(): void;
  readonly connected: () => boolean;
}

export function socketUrl(path: string, location: { protocol: string; host: string } = window.location): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

export function connectSocket(url: string, handlers: SocketHandlers): LiveSocket {
  let socket: WebSocket | null = null;
  let closedByUs = false;
  let attempts = 0;
  let everOpened = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const open = () => {
    socket = new WebSocket(url);
    socket.onopen = () => {
      attempts = 0;
      handlers.opened(everOpened);
      everOpened = true;
    };
    socket.onmessage = (event: MessageEvent<string>) => {
      try {
        handlers.message(JSON.parse(event.data) as SocketMessage);
      } catch {
        // A message that is not JSON is not ours; ignore it.
      }
    };
    socket.onclose = () => {
      socket = null;
      if (closedByUs) return;
      handlers.closed();
      attempts += 1;
      timer = setTimeout(open, Math.min(10_000, 500 * 2 ** Math.min(attempts, 5)));
    };
  };
  open();
  return {
    close() {
      closedByUs = true;
      if (timer !== null) clearTimeout(timer);
      socket?.close();
    },
    connected: () => socket?.readyState === WebSocket.OPEN,
  };
}
