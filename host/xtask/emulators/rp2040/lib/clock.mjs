// The emulated time, counted in core cycles: the run loop adds each instruction's cycles (what
// rp2040js's `executeInstruction` returns) to `t`, and the time is read from there, instead of a
// call to rp2040js's SimulationClock after every instruction. It keeps that clock's semantics as
// rp2040js's own Simulator drives it, exactly: time moves on after an instruction by its cycles (8 ns
// each at 125 MHz), alarms fire in order of their due time once an instruction has taken the time
// past it, and while an alarm's callback runs the time reads as that alarm's due time. (rp2040js
// also adds 8 to `core.cycles` for each hardware division, a latency the HAL already waits out with
// instructions of its own; like the Simulator's clock, this one does not count it twice.)

const NS_PER_CYCLE = 8;

class Alarm {
  constructor(clock, callback) {
    this.clock = clock;
    this.callback = callback;
    this.next = null;
    this.nanos = 0;
    this.scheduled = false;
  }

  schedule(deltaNanos) {
    if (this.scheduled) this.cancel();
    this.clock.link(this, deltaNanos);
  }

  cancel() {
    this.clock.unlink(this);
    this.scheduled = false;
  }
}

export class CycleClock {
  constructor() {
    /** Cycles since the start, asleep (WFI/WFE, skipped to the next alarm) included. */
    this.t = 0;
    this.head = null;
    this.during = -1;
    /** The cycle at which the earliest alarm is due (Infinity when none is). */
    this.nextDue = Infinity;
  }

  get nanos() {
    return this.during >= 0 ? this.during : this.t * NS_PER_CYCLE;
  }

  createAlarm(callback) {
    return new Alarm(this, callback);
  }

  link(alarm, deltaNanos) {
    alarm.nanos = this.nanos + deltaNanos;
    let item = this.head;
    let last = null;
    while (item && item.nanos < alarm.nanos) {
      last = item;
      item = item.next;
    }
    if (last) last.next = alarm;
    else this.head = alarm;
    alarm.next = item;
    alarm.scheduled = true;
    this.update();
  }

  unlink(alarm) {
    let item = this.head;
    let last = null;
    while (item) {
      if (item === alarm) {
        if (last) last.next = item.next;
        else this.head = item.next;
        this.update();
        return true;
      }
      last = item;
      item = item.next;
    }
    return false;
  }

  update() {
    this.nextDue = this.head ? Math.ceil(this.head.nanos / NS_PER_CYCLE) : Infinity;
  }

  /** Fires every alarm due by now. */
  fire() {
    const now = this.nanos;
    while (this.head && this.head.nanos <= now) {
      const alarm = this.head;
      this.head = alarm.next;
      this.during = alarm.nanos;
      try {
        alarm.callback();
      } finally {
        this.during = -1;
      }
    }
    this.update();
  }

  /** Sleeps to the next alarm and fires it; false when no alarm is pending. */
  sleep() {
    if (!this.head) return false;
    this.t = Math.max(this.t, this.nextDue);
    this.fire();
    return true;
  }
}
