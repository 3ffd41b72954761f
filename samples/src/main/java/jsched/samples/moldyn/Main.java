/*
 * moldyn: molecular dynamics of Lennard-Jones particles (workload for overhead measurements).
 *
 * Models: the Java Grande "moldyn" kernel. N particles start on a cubic lattice in a periodic box
 * with small deterministic random velocities and move by velocity Verlet under a truncated and
 * shifted Lennard-Jones potential. Each of four workers owns a fixed slice of the particles. A
 * time step: move the own particles (half kick, drift), wait at a barrier until every position
 * is updated, compute the forces on the own particles from all others, second half kick, add the
 * slice's potential and kinetic energy to a shared accumulator (synchronized), wait at the
 * barrier again. The barrier is synchronized + wait/notifyAll. Energies are added as fixed-point
 * longs (exact, so the order of the additions does not matter) and the force on a particle sums
 * its partners in index order, so the printed energy does not depend on the schedule.
 *
 * Shared variables: hot — the statics `x`, `y`, `z` and the position arrays they hold (each
 * worker reads all positions for every own particle: N*N reads per step); lukewarm — the
 * velocity and force arrays (a few accesses per particle and step); rare — the statics `box`,
 * `cutoff`, `dt` (a few reads per worker and step), the barrier's fields and the energy
 * accumulator's arrays (a few accesses per worker and step, under their locks), the static
 * `steps` (once per worker).
 *
 * A correct program (no bug), used to measure jsched's overhead: three monitor enters per worker
 * and step, about 6000 synchronization operations in all (waits and notifies included). Prints
 * "moldyn: result <final total energy> (<N> particles, <S> steps, 4 threads)". With -ea main
 * checks that all energies are finite and that the total energy drifts by less than 1%.
 * Optional argument: particles per lattice edge (default 8, N = 512).
 */
package jsched.samples.moldyn;

import java.util.Locale;

public class Main {
  static final int THREADS = 4;
  static final double SCALE = 0x1.0p32; // fixed point for energies
  static int steps = 200;
  static double dt = 0.004;
  static double cutoff = 2.5;
  static double box;

  static double[] x, y, z, vx, vy, vz, fx, fy, fz;

  /** Reusable barrier for THREADS parties. */
  static final class Barrier {
    private final int parties;
    private int arrived;
    private int generation;

    Barrier(int parties) {
      this.parties = parties;
    }

    synchronized void await() throws InterruptedException {
      int mine = generation;
      if (++arrived == parties) {
        arrived = 0;
        generation++;
        notifyAll();
        return;
      }
      while (generation == mine) {
        wait();
      }
    }
  }

  /** Per-step potential and kinetic energy, summed over the workers in fixed point. */
  static final class Energy {
    final long[] potential = new long[steps + 1];
    final long[] kinetic = new long[steps + 1];
    final int[] contributions = new int[steps + 1];

    synchronized void add(int step, double pot, double kin) {
      potential[step] += Math.round(pot * SCALE);
      kinetic[step] += Math.round(kin * SCALE);
      contributions[step]++;
    }

    double total(int step) {
      return (potential[step] + kinetic[step]) / SCALE;
    }
  }

  static final class Worker extends Thread {
    private final int from;
    private final int to;
    private final Barrier barrier;
    private final Energy energy;

    Worker(int index, int n, Barrier barrier, Energy energy) {
      super("worker-" + index);
      from = n * index / THREADS;
      to = n * (index + 1) / THREADS;
      this.barrier = barrier;
      this.energy = energy;
    }

    @Override
    public void run() {
      try {
        int n = steps;
        energy.add(0, forces(), kinetic());
        barrier.await(); // everyone has read the initial positions
        for (int step = 1; step <= n; step++) {
          double h = dt;
          double l = box;
          for (int i = from; i < to; i++) {
            vx[i] += 0.5 * h * fx[i];
            vy[i] += 0.5 * h * fy[i];
            vz[i] += 0.5 * h * fz[i];
            x[i] = wrap(x[i] + h * vx[i], l);
            y[i] = wrap(y[i] + h * vy[i], l);
            z[i] = wrap(z[i] + h * vz[i], l);
          }
          barrier.await(); // all positions of this step are written
          double pot = forces();
          for (int i = from; i < to; i++) {
            vx[i] += 0.5 * h * fx[i];
            vy[i] += 0.5 * h * fy[i];
            vz[i] += 0.5 * h * fz[i];
          }
          energy.add(step, pot, kinetic());
          barrier.await(); // everyone has read the positions; they may move again
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    /** Forces on the own particles from all others; returns the own half of the pair energies. */
    private double forces() {
      int n = x.length;
      double l = box;
      double half = 0.5 * l;
      double rc2 = cutoff * cutoff;
      double shift = 4.0 * (Math.pow(cutoff, -12) - Math.pow(cutoff, -6));
      double pot = 0;
      for (int i = from; i < to; i++) {
        double xi = x[i], yi = y[i], zi = z[i];
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
          double dx = xi - x[j];
          double dy = yi - y[j];
          double dz = zi - z[j];
          dx = dx > half ? dx - l : dx < -half ? dx + l : dx;
          dy = dy > half ? dy - l : dy < -half ? dy + l : dy;
          dz = dz > half ? dz - l : dz < -half ? dz + l : dz;
          double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < rc2 && j != i) {
            double inv2 = 1.0 / r2;
            double inv6 = inv2 * inv2 * inv2;
            double f = 24.0 * inv2 * inv6 * (2.0 * inv6 - 1.0);
            ax += f * dx;
            ay += f * dy;
            az += f * dz;
            pot += 0.5 * (4.0 * inv6 * (inv6 - 1.0) - shift);
          }
        }
        fx[i] = ax;
        fy[i] = ay;
        fz[i] = az;
      }
      return pot;
    }

    private double kinetic() {
      double kin = 0;
      for (int i = from; i < to; i++) {
        kin += 0.5 * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
      }
      return kin;
    }

    private static double wrap(double c, double l) {
      return c < 0 ? c + l : c >= l ? c - l : c;
    }
  }

  /** Particles on a cubic lattice, velocities from an xorshift generator, zero total momentum. */
  static void setUp(int edge) {
    int n = edge * edge * edge;
    double spacing = 1.2;
    box = edge * spacing;
    x = new double[n];
    y = new double[n];
    z = new double[n];
    vx = new double[n];
    vy = new double[n];
    vz = new double[n];
    fx = new double[n];
    fy = new double[n];
    fz = new double[n];
    long state = 0x2545F4914F6CDD1DL;
    double[] mean = new double[3];
    for (int i = 0; i < n; i++) {
      x[i] = (i % edge + 0.5) * spacing;
      y[i] = (i / edge % edge + 0.5) * spacing;
      z[i] = (i / (edge * edge) + 0.5) * spacing;
      double[] v = new double[3];
      for (int d = 0; d < 3; d++) {
        state ^= state << 13;
        state ^= state >>> 7;
        state ^= state << 17;
        v[d] = ((state >>> 11) * 0x1.0p-53 - 0.5) * 2.0;
        mean[d] += v[d] / n;
      }
      vx[i] = v[0];
      vy[i] = v[1];
      vz[i] = v[2];
    }
    for (int i = 0; i < n; i++) {
      vx[i] -= mean[0];
      vy[i] -= mean[1];
      vz[i] -= mean[2];
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int edge = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    setUp(edge);
    Barrier barrier = new Barrier(THREADS);
    Energy energy = new Energy();
    Worker[] workers = new Worker[THREADS];
    for (int i = 0; i < THREADS; i++) {
      workers[i] = new Worker(i, x.length, barrier, energy);
      workers[i].start();
    }
    for (Worker w : workers) {
      w.join();
    }
    double first = energy.total(0);
    double last = energy.total(steps);
    for (int s = 0; s <= steps; s++) {
      assert energy.contributions[s] == THREADS
          : "step " + s + ": " + energy.contributions[s] + " contributions";
      assert Double.isFinite(energy.total(s)) && energy.kinetic[s] > 0
          : "step " + s + ": energy " + energy.total(s);
      assert Math.abs(energy.total(s) - first) < 0.01 * Math.abs(first)
          : "step " + s + ": energy " + energy.total(s) + " drifted from " + first;
    }
    String format = "moldyn: result %.6f (%d particles, %d steps, %d threads)";
    System.out.println(String.format(Locale.ROOT, format, last, x.length, steps, THREADS));
  }
}
