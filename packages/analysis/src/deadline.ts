// A point in time after which an operation gives up. Checked in the solver's and the counter's
// inner loops every few thousand steps, so that no operation runs far past its budget.

export class DeadlineExceeded extends Error {
  constructor() {
    super('time budget exceeded');
    this.name = 'DeadlineExceeded';
  }
}

export class Deadline {
  /** Epoch milliseconds; Infinity for none. */
  readonly at: number;
  constructor(at: number) {
    this.at = at;
  }
  static after(ms: number): Deadline {
    return new Deadline(Number.isFinite(ms) ? Date.now() + ms : Infinity);
  }
  static none(): Deadline {
    return new Deadline(Infinity);
  }
  expired(): boolean {
    return Date.now() >= this.at;
  }
  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }
  check(): void {
    if (Date.now() >= this.at) throw new DeadlineExceeded();
  }
}
