// A websocket that reconnects with backoff (ws/projects/<id>/ for the progress pages).

export interface LiveHandlers<T> {
  message(message: T): void;
  opened(reconnected: boolean): void;
  closed(): void;
}

export interface Live {
  close(): void;
}

export function wsUrl(path: string, location: { protocol: string; host: string } = window.location): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

export function connectLive<T>(url: string, handlers: LiveHandlers<T>): Live {
  let socket: WebSocket | null = null;
  let stopped = false;
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
        return;
      }
      handlers.message(data as T);
    };
    socket.onclose = () => {
      socket = null;
      if (stopped) return;
      handlers.closed();
      attempts += 1;
      timer = setTimeout(open, Math.min(10_000, 500 * 2 ** Math.min(attempts, 5)));
    };
  };
  open();
  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      socket?.close();
    },
  };
}
