/**
 * The embedded service's local control channel: a unix socket in DATA_DIR (mode 0600: the
 * service's own user, and root, may connect) through which a command line asks the running
 * service to do what it would otherwise do on the database itself. The embedded engine can be
 * opened by one process only (data-dir-lock.ts), so without it `npm run operator-key` or a backup
 * meant stopping the hotel's service.
 *
 * One request per connection: a JSON line `{ "command", "args" }`, answered by a JSON line
 * `{ "code", "stdout", "stderr" }` (what the command line prints, and its exit status).
 */
import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';

export const CONTROL_SOCKET = 'control.sock';
/** The longest request the channel reads (a command and its arguments). */
const MAX_REQUEST = 64 * 1024;
/** Unix socket paths are limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;

export interface ControlReply {
  code: number;
  stdout: string;
  stderr: string;
}
export type ControlCommand = (args: string[]) => Promise<ControlReply>;

export interface ControlChannel {
  readonly socketPath: string;
  close(): Promise<void>;
}

export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_SOCKET);
}

/**
 * Listens on DATA_DIR/control.sock for `commands`. Call only while holding DATA_DIR's lock: a
 * socket file left there is then a dead process's, and is replaced. Null where the path is too long
 * for a unix socket (the command lines then refuse as before, saying so).
 */
export async function startControlChannel(
  dataDir: string,
  commands: Record<string, ControlCommand>,
  onError: (error: unknown) => void,
): Promise<ControlChannel | null> {
  const socketPath = controlSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) return null;
  await rm(socketPath, { force: true });
  const server: Server = createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', onError);
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (request.length > MAX_REQUEST) socket.destroy();
      const end = request.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      void answer(request.slice(0, end)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const answer = async (line: string): Promise<ControlReply> => {
    try {
      const { command, args } = JSON.parse(line) as { command?: unknown; args?: unknown };
      const run =
        typeof command === 'string' && Object.hasOwn(commands, command) ? commands[command] : undefined;
      if (!run || !Array.isArray(args) || !args.every((a) => typeof a === 'string'))
        return { code: 64, stdout: '', stderr: `the service does not answer ${JSON.stringify(command)}\n` };
      return await run(args as string[]);
    } catch (error) {
      onError(error);
      return { code: 1, stdout: '', stderr: 'the service failed to answer; see its log\n' };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  server.on('error', onError);
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/**
 * Asks the service running on `dataDir` to run `command`; null when no service answers there (none
 * runs, or one without the channel), so the caller can say the directory is in use.
 */
export function askRunningService(
  dataDir: string,
  command: string,
  args: string[],
): Promise<ControlReply | null> {
  return new Promise((resolve) => {
    const socket = createConnection(controlSocketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ command, args })}\n`));
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => resolve(null));
    socket.on('close', () => {
      try {
        resolve(JSON.parse(answer) as ControlReply);
      } catch {
        resolve(null);
      }
    });
  });
}
