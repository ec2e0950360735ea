// A websocket that reconnects with backoff, for every live view (the workspace's
// ws/annotations/<id>/, the admin progress matrix's ws/projects/<id>/). After a reconnect the
// caller resynchronises (missed messages are not replayed by the server).

export interface LiveHandlers<T> {
  message(message: T): void;
  opened(reconnected: boolean): void;
  closed(): void;
}

export interface LiveSocket {
  close(): void;
  readonly connected: () => boolean;
}

export function wsUrl(
  path: string,
  location: { protocol: string; host: string } = window.location,
): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

export function connectLive<T>(url: string, handlers: LiveHandlers<T>): LiveSocket {
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
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return; // a message that is not JSON is not ours
      }
      handlers.message(data as T);
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
