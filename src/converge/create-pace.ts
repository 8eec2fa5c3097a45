/**
 * The creates of one account as the coalescing of its lists sees them: how many are writing
 * or outstanding, the most at once (the caller's lanes), and the caller's pace (the gap between
 * beginnings, its longest pause, how long a POST takes and a create is held). AccountAlerts
 * reads these to decide when a queued list starts.
 */

/** The caller's pace is measured over its last this many beginnings (fewer at first). */
const PACE_SAMPLE = 64;
/** The gap assumed before two creates have begun (ms). */
const FIRST_GAP_MS = 30;

/** A create as the coalescing sees it; see AccountAlerts.beginCreate. */
export interface CreateInProgress {
  /** Its POST is sent (each send, the first and any re-send). */
  sending(): void;
  /** Its POST has answered, or failed. */
  posted(): void;
  /** It needs no more list. */
  done(): void;
}

/** Its counts are read by AccountAlerts and written only by the creates it hands out. */
export class CreatePace {
  /** Creates whose POST has not answered yet. */
  writing = 0;
  /** Creates begun and not done: writing, waiting for a list, or reading one. */
  outstanding = 0;
  /** The most creates outstanding at once so far: a lower bound of the caller's parallelism. */
  lanes = 0;
  /** Creates begun so far. */
  begun = 0;
  /** The longest the caller has gone without beginning a create while it had a lane free (ms). */
  longestPauseMs = 0;
  /** When a create last freed one of the caller's lanes while all were held. */
  laneFreedAt = 0;
  /** When the latest creates began (at most PACE_SAMPLE + 1, oldest first). */
  readonly beganAt: number[] = [];
  /** The caller's gap between beginnings (ms), over its last PACE_SAMPLE creates. */
  gapMs = FIRST_GAP_MS;
  /** The smoothed time a create's POST takes (ms). */
  postMs = 0;
  /** The smoothed time a create is outstanding, from beginCreate to done (ms). */
  heldMs = 0;

  /** Marks a create begun; `onChange` runs when its POST answers and when it is done. */
  begin(onChange: () => void): CreateInProgress {
    const now = Date.now();
    // The pace over many creates, several cycles of lists: the caller hands creates over in a
    // burst after each list answers and slowly in between, and a short average taken when a
    // window opens (just after a list) would see mostly the burst and end windows early.
    const began = this.beganAt;
    // How long the caller went without beginning a create while it had a lane free.
    const previous = began[began.length - 1];
    if (previous !== undefined)
      this.longestPauseMs = Math.max(this.longestPauseMs, now - Math.max(previous, this.laneFreedAt));
    if (began.length > PACE_SAMPLE) began.shift();
    began.push(now);
    if (began.length > 1) this.gapMs = (now - began[0]!) / (began.length - 1);
    this.outstanding++;
    this.begun++;
    this.lanes = Math.max(this.lanes, this.outstanding);
    let posting = false;
    let sentAt = 0;
    let done = false;
    const create: CreateInProgress = {
      sending: () => {
        if (posting || done) return;
        posting = true;
        sentAt = Date.now();
        this.writing++;
      },
      posted: () => {
        if (!posting) return;
        posting = false;
        this.postMs = 0.8 * this.postMs + 0.2 * (Date.now() - sentAt);
        this.writing--;
        onChange();
      },
      done: () => {
        if (done) return;
        create.posted();
        done = true;
        const heldMs = Date.now() - now;
        this.heldMs = this.heldMs === 0 ? heldMs : 0.95 * this.heldMs + 0.05 * heldMs;
        if (this.outstanding-- >= this.lanes) this.laneFreedAt = Date.now();
        onChange();
      },
    };
    return create;
  }
}
