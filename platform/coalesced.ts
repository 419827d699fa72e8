/**
 * Runs `run` one at a time. A wake during a run asks for one more right after it (the run's queries
 * may have come before what woke it was committed), however many wakes came meanwhile.
 */
export class Coalesced {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.run()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.again) this.wake();
      });
  }

  /** Settles once no run is under way (the one asked for after it included). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
