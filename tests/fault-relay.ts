// A TCP relay to the run's PostgreSQL that plays its faults for the instances behind it: it
// stalls (holds every byte, accepts new connections and never answers) or refuses (cuts every
// connection and refuses new ones, as a stopped server does), then relays again. The shared
// server itself is never stopped (other runs use it).
import net from "node:net";
import { freePort } from "../scripts/harness";

export type Mode = "relay" | "stall" | "refuse";

/** A relay to PostgreSQL that can stall (hold every byte, accept and hold new connections) or refuse (cut and refuse all). */
export async function faultRelay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let mode: Mode = "relay";
  const sockets = new Set<net.Socket>();
  const port = await freePort();
  let server: net.Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        sockets.add(client);
        client.on("error", () => undefined);
        client.on("close", () => sockets.delete(client));
        if (mode === "stall") return; // accepted, never answered
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        sockets.add(upstream);
        upstream.on("error", () => client.destroy());
        upstream.on("close", () => (sockets.delete(upstream), client.destroy()));
        client.on("close", () => upstream.destroy());
        // Each byte passes only while relaying: a stall holds them (the connection stays open).
        client.on("data", (chunk) => mode === "relay" && upstream.write(chunk));
        upstream.on("data", (chunk) => mode === "relay" && client.write(chunk));
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen();
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    /** DATABASE_URL through the relay. */
    url: url.toString(),
    async set(next: Mode) {
      mode = next;
      if (next === "refuse") {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server!.close(resolve));
      }
      if (next === "stall") for (const socket of sockets) socket.pause();
      if (next === "relay") {
        for (const socket of sockets) socket.destroy(); // held bytes are gone: those connections are done
        if (!server!.listening) await listen();
      }
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server?.close();
    },
  };
}
