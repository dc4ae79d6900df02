/** An SMTP server that accepts and discards every message (guest messages sent during a run). */
export async function smtpSink(): Promise<{ url: string; accepted: () => number; close(): void }> {
  const { SMTPServer } = await import('smtp-server');
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        accepted++;
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, accepted: () => accepted, close: () => server.close() };
}
