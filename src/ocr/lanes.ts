/**
 * The engine's lanes: worker threads that each hold the models and read one page at a time,
 * the cores shared among them. One lane by default. On 2 cores two lanes of one thread read
 * more than one lane of two (the 1200-px card photo, four at a time over HTTP: 3.7 cards a
 * second against 3.1; a model run on 2 threads was at best 1.2x as fast as on one), at about
 * 100 MB more at rest; an idle lane reads part of a busy lane's lines (peers.ts), so that one
 * page alone is read on both cores too.
 *
 * What each lane has to do is kept in shared memory, so that every thread can see it without
 * asking: the documents (or the main thread's reads) assigned to it, which the engine uses to
 * choose a lane, and the reads queued or running on it, which tell a peer whether it is idle.
 */

export class LaneLoads {
  private readonly counts: Int32Array;
  /** How many lanes the counters are for (two counters a lane). */
  readonly lanes: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.counts = new Int32Array(buffer);
    this.lanes = this.counts.length / 2;
  }

  static create(lanes: number): LaneLoads {
    return new LaneLoads(new SharedArrayBuffer(2 * lanes * Int32Array.BYTES_PER_ELEMENT));
  }

  /** Reads queued or running on the lane (counted by the lane itself). */
  busy(lane: number): number {
    return Atomics.load(this.counts, lane);
  }

  addBusy(lane: number, delta: number): void {
    Atomics.add(this.counts, lane, delta);
  }

  /** Documents connected to the lane, and reads of the engine's own thread sent to it. */
  assigned(lane: number): number {
    return Atomics.load(this.counts, this.lanes + lane);
  }

  addAssigned(lane: number, delta: number): void {
    Atomics.add(this.counts, this.lanes + lane, delta);
  }

  /** The lane with the fewest assigned, then fewest busy; the lowest index on a tie. */
  leastLoaded(): number {
    let best = 0;
    for (let lane = 1; lane < this.lanes; lane += 1) {
      const load = [this.assigned(lane), this.busy(lane)] as const;
      const bestLoad = [this.assigned(best), this.busy(best)] as const;
      if (load[0] < bestLoad[0] || (load[0] === bestLoad[0] && load[1] < bestLoad[1])) best = lane;
    }
    return best;
  }
}

/** What a lane's worker thread is started with. */
export interface LaneData<S> {
  readonly settings: S;
  readonly lane: number;
  readonly loads: SharedArrayBuffer;
}
