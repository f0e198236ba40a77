// Import progress: a redrawn bar with rows per second and ETA on a terminal, plain lines otherwise.
export type Progress = { update: (done: number, detail: string) => void; finish: () => void };

const seconds = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s`
      : `${Math.round(s)}s`;

export function progress(total: number, stream: NodeJS.WriteStream): Progress {
  const started = Date.now();
  const figures = (done: number) => {
    const elapsed = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = done / elapsed;
    const eta = rate > 0 ? seconds((total - done) / rate) : "?";
    return `${done}/${total} rows, ${Math.round(rate)} rows/s, ETA ${eta}`;
  };
  if (!stream.isTTY)
    return { update: (done, detail) => stream.write(`${figures(done)} (${detail})\n`), finish: () => {} };
  return {
    update(done, detail) {
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      stream.write(
        `\r\x1b[2K[${"#".repeat(filled)}${".".repeat(width - filled)}] ${percent}% ${figures(done)} (${detail})`,
      );
    },
    finish: () => stream.write("\n"),
  };
}
