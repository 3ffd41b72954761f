/*
 * montecarlo: Monte-Carlo pricing of a European call option (workload for overhead measurements).
 *
 * Models: the Java Grande "montecarlo" kernel. Each path simulates the log-price of a stock over
 * a number of time steps (Gaussian increments from Box-Muller on an xorshift generator) under a
 * term structure of volatility; the discounted payoff of the call at expiry is averaged over all
 * paths. The paths are cut into chunks; four workers take chunk numbers from a shared pool
 * (synchronized) and hand back each chunk's sums. A chunk's generator is seeded by the chunk
 * number, so a chunk gives the same sums whichever worker runs it, and main adds the chunk sums
 * in chunk order after joining the workers: the printed price does not depend on the schedule.
 *
 * Shared variables: hot — the market's per-step arrays `drift` and `diffusion` (heap arrays read
 * at every step of every path, tens of millions of reads); lukewarm — the `Option` object's
 * fields (read once per path); rare — the static `steps` (read once per chunk), the pool's
 * `next` and `finished` counters and its result arrays (once per chunk, under the pool's lock).
 *
 * A correct program (no bug), used to measure jsched's overhead: a few hundred chunks, so about
 * a thousand synchronization operations. Prints "montecarlo: result <price> (<paths> paths, 4
 * threads)". With -ea main checks that the price is within 5 standard errors of the
 * Black-Scholes price. Optional argument: number of paths (default 300000).
 */
package jsched.samples.montecarlo;

import java.util.Locale;

public class Main {
  static final int THREADS = 4;
  static final int PATHS_PER_CHUNK = 1000;
  /** Time steps per path: a configuration static, read once per chunk. */
  static int steps = 64;

  /** Per-step drift and diffusion of the log-price; read-only while the workers run. */
  static final class Market {
    final double[] drift;
    final double[] diffusion;
    final double rate;
    final double expiry;

    Market(int steps, double rate, double expiry) {
      this.rate = rate;
      this.expiry = expiry;
      drift = new double[steps];
      diffusion = new double[steps];
      double dt = expiry / steps;
      for (int k = 0; k < steps; k++) {
        double sigma = volatility(k, steps);
        drift[k] = (rate - 0.5 * sigma * sigma) * dt;
        diffusion[k] = sigma * Math.sqrt(dt);
      }
    }

    /** Volatility term structure: rising from 20% to 30% over the life of the option. */
    static double volatility(int k, int steps) {
      return 0.20 + 0.10 * k / steps;
    }
  }

  static final class Option {
    final double spot;
    final double strike;
    final double discount;

    Option(double spot, double strike, double discount) {
      this.spot = spot;
      this.strike = strike;
      this.discount = discount;
    }
  }

  /** Hands out chunk numbers and collects each chunk's sums. */
  static final class Pool {
    private final int chunks;
    private int next;
    private int finished;
    private final double[] sum;
    private final double[] sumSquares;

    Pool(int chunks) {
      this.chunks = chunks;
      sum = new double[chunks];
      sumSquares = new double[chunks];
    }

    synchronized int take() {
      return next < chunks ? next++ : -1;
    }

    synchronized void finish(int chunk, double s, double sq) {
      sum[chunk] = s;
      sumSquares[chunk] = sq;
      finished++;
    }
  }

  static final class Worker extends Thread {
    private final Pool pool;
    private final Market market;
    private final Option option;

    Worker(int index, Pool pool, Market market, Option option) {
      super("worker-" + index);
      this.pool = pool;
      this.market = market;
      this.option = option;
    }

    @Override
    public void run() {
      for (int chunk = pool.take(); chunk >= 0; chunk = pool.take()) {
        simulate(chunk);
      }
    }

    private void simulate(int chunk) {
      int n = steps;
      long state = 0x9E3779B97F4A7C15L * (chunk + 1) ^ 0xD1B54A32D192ED03L;
      double sum = 0;
      double sumSquares = 0;
      for (int p = 0; p < PATHS_PER_CHUNK; p++) {
        double logPrice = 0;
        for (int k = 0; k < n; k += 2) {
          // Box-Muller: two uniform numbers in (0, 1] give two independent normal increments.
          state ^= state << 13;
          state ^= state >>> 7;
          state ^= state << 17;
          double u1 = ((state >>> 11) + 1) * 0x1.0p-53;
          state ^= state << 13;
          state ^= state >>> 7;
          state ^= state << 17;
          double u2 = (state >>> 11) * 0x1.0p-53;
          double radius = Math.sqrt(-2.0 * Math.log(u1));
          double angle = 2.0 * Math.PI * u2;
          logPrice += market.drift[k] + market.diffusion[k] * radius * Math.cos(angle);
          logPrice += market.drift[k + 1] + market.diffusion[k + 1] * radius * Math.sin(angle);
        }
        double price = option.spot * Math.exp(logPrice);
        double payoff = Math.max(price - option.strike, 0.0) * option.discount;
        sum += payoff;
        sumSquares += payoff * payoff;
      }
      pool.finish(chunk, sum, sumSquares);
    }
  }

  /** Black-Scholes price of the call under the same (time-dependent) volatility. */
  static double blackScholes(Market market, Option option, int steps) {
    double variance = 0;
    for (int k = 0; k < steps; k++) {
      double sigma = Market.volatility(k, steps);
      variance += sigma * sigma * market.expiry / steps;
    }
    double sd = Math.sqrt(variance);
    double growth = Math.log(option.spot / option.strike) + market.rate * market.expiry;
    double d1 = (growth + 0.5 * variance) / sd;
    double d2 = d1 - sd;
    return option.spot * normalCdf(d1) - option.strike * option.discount * normalCdf(d2);
  }

  /** Standard normal CDF (Abramowitz-Stegun 7.1.26 for erf, error below 1.5e-7). */
  static double normalCdf(double x) {
    double z = Math.abs(x) / Math.sqrt(2.0);
    double t = 1.0 / (1.0 + 0.3275911 * z);
    double poly = t * (0.254829592
        + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    double erf = 1.0 - poly * Math.exp(-z * z);
    return x >= 0 ? 0.5 * (1.0 + erf) : 0.5 * (1.0 - erf);
  }

  public static void main(String[] args) throws InterruptedException {
    int paths = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
    int chunks = Math.max(1, paths / PATHS_PER_CHUNK);
    paths = chunks * PATHS_PER_CHUNK;
    Market market = new Market(steps, 0.05, 1.0);
    Option option = new Option(100.0, 105.0, Math.exp(-market.rate * market.expiry));
    Pool pool = new Pool(chunks);
    Worker[] workers = new Worker[THREADS];
    for (int i = 0; i < THREADS; i++) {
      workers[i] = new Worker(i, pool, market, option);
      workers[i].start();
    }
    for (Worker w : workers) {
      w.join();
    }
    double sum = 0;
    double sumSquares = 0;
    for (int c = 0; c < chunks; c++) {
      sum += pool.sum[c];
      sumSquares += pool.sumSquares[c];
    }
    double price = sum / paths;
    double stdError = Math.sqrt((sumSquares / paths - price * price) / paths);
    double exact = blackScholes(market, option, steps);
    assert pool.finished == chunks : "finished " + pool.finished + " of " + chunks + " chunks";
    assert Double.isFinite(price) && stdError > 0
        : "price " + price + ", standard error " + stdError;
    assert Math.abs(price - exact) < 5 * stdError
        : "price " + price + " is off Black-Scholes " + exact + " by more than 5 x " + stdError;
    System.out.println(String.format(Locale.ROOT, "montecarlo: result %.6f (%d paths, %d threads)",
        price, paths, THREADS));
  }
}
