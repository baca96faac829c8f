/* Stepping through a recorded search: a place in its list of events, moved forward by applying
 * events and back by undoing them, by hand or on a timer. The page draws (its apply, unapply,
 * reset and show); this only counts and keeps time. Without an unapply, stepping back rebuilds
 * from nothing (reset, then apply again up to the step).
 *
 *   const playback = new Playback({ apply, unapply, reset, show, perSecond, onPlaying });
 *   playback.load(events); playback.goTo(1); playback.play();
 */
const REWIND_LIMIT = 200; // further back than this, rebuilding from nothing is cheaper than undoing

export class Playback {
  constructor({ apply, unapply, reset, show, perSecond, onPlaying }) {
    Object.assign(this, { apply, unapply, reset, show, perSecond, onPlaying });
    this.events = [];
    this.step = 0; // events applied so far
    this.timer = null;
  }

  get length() { return this.events.length; }
  get playing() { return this.timer !== null; }
  get current() { return this.step ? this.events[this.step - 1] : null; }

  /** A new search's events, nothing applied yet. */
  load(events) {
    this.pause();
    this.events = events;
    this.step = 0;
  }

  goTo(k, { scroll = true } = {}) {
    k = Math.max(0, Math.min(this.events.length, k));
    if (k < this.step && this.unapply && this.step - k <= REWIND_LIMIT) {
      while (this.step > k) this.unapply(this.events[--this.step]);
    } else if (k < this.step) {
      this.reset();
      this.step = 0;
    }
    while (this.step < k) this.apply(this.events[this.step++]);
    this.show(scroll);
  }

  /** Apply again up to the same step (after the drawing was rebuilt). */
  replay() {
    const k = this.step;
    this.step = 0;
    this.goTo(k, { scroll: false });
  }

  play() {
    if (!this.events.length) return;
    if (this.step >= this.events.length) this.goTo(0);
    this.pause();
    const perSecond = this.perSecond();
    const interval = Math.max(16, 1000 / perSecond);
    const perTick = Math.max(1, Math.round(perSecond * interval / 1000));
    this.timer = setInterval(() => {
      if (this.step >= this.events.length) { this.pause(); return; }
      this.goTo(this.step + perTick);
    }, interval);
    this.onPlaying(true);
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.onPlaying(false);
  }

  toggle() { if (this.timer) this.pause(); else this.play(); }
}
