/**
 * @fileoverview The export as a byte stream that reads on only when its reader wants more: a chunk
 * of text is asked of the export (`exportChunks`) only when the stream's buffer has room, so a
 * client that does not read holds one buffer (EXPORT_STREAM_BYTES) here and one in its socket, never
 * more, and its export reads no further pages. A stream whose reader has taken nothing for `stallMs`
 * since the last chunk was handed over is given up: `onStall` (the caller closes the connection),
 * then destroyed, which ends the export's iteration. `onClose` is told exactly once, however the
 * stream ends: read to its end, failed, destroyed by its reader (a client gone) or stalled.
 */
import { Readable } from 'node:stream';

/** The stream's buffer (its high-water mark): the export's chunks are about this size too. */
export const EXPORT_STREAM_BYTES = 16 * 1024;

export interface ExportStreamOptions {
  /** How long the stream waits for its reader to take a chunk before it gives up. */
  readonly stallMs: number;
  /** Told when the reader took nothing for `stallMs`; the stream is destroyed right after. */
  readonly onStall: () => void;
  /** Told once, when the stream is over. */
  readonly onClose: () => void;
}

export class ExportStream extends Readable {
  private pending = false;
  private stall: NodeJS.Timeout | undefined;
  private over = false;

  constructor(
    private readonly chunks: AsyncGenerator<string>,
    private readonly options: ExportStreamOptions,
  ) {
    super({ highWaterMark: EXPORT_STREAM_BYTES });
    // Also waits for the first read: a stream nobody ever reads is given up too.
    this.armStall();
  }

  override _read(): void {
    this.disarmStall();
    if (this.pending) return;
    this.pending = true;
    this.chunks.next().then(
      (step) => {
        this.pending = false;
        if (this.destroyed) return;
        if (step.done === true) {
          this.push(null);
          return;
        }
        this.armStall(); // until the reader asks for the next one
        this.push(step.value, 'utf8');
      },
      (error: unknown) => {
        this.pending = false;
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.disarmStall();
    // Queued behind a page being read, if any: the iteration stops there.
    this.chunks.return(undefined).catch(() => undefined);
    if (!this.over) {
      this.over = true;
      this.options.onClose();
    }
    callback(error);
  }

  private armStall(): void {
    this.disarmStall();
    this.stall = setTimeout(() => {
      this.stall = undefined;
      if (this.destroyed) return;
      this.options.onStall();
      this.destroy();
    }, this.options.stallMs);
    this.stall.unref();
  }

  private disarmStall(): void {
    if (this.stall !== undefined) clearTimeout(this.stall);
    this.stall = undefined;
  }
}
