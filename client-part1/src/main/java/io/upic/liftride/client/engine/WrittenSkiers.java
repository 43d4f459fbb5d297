package io.upic.liftride.client.engine;

import java.util.random.RandomGenerator;

/**
 * The skiers one worker has stored rides for (the run's resort, season and day are constant), so its GETs read data
 * that exists: the last {@link #CAPACITY} of them, a skier once per stored ride. Thread-private to its worker: no
 * synchronization; allocates nothing after construction.
 */
final class WrittenSkiers {

    static final int CAPACITY = 1024;

    private final int[] skiers = new int[CAPACITY];
    private int stored;

    /** A ride of {@code skierId} was stored (answered 201). */
    void add(int skierId) {
        skiers[stored++ % CAPACITY] = skierId;
        if (stored == 2 * CAPACITY) {
            stored = CAPACITY; // keeps the index in range; the slots stay full
        }
    }

    boolean isEmpty() {
        return stored == 0;
    }

    /** One of the skiers kept, drawn from {@code random}; call only when not {@link #isEmpty()}. */
    int pick(RandomGenerator random) {
        return skiers[random.nextInt(Math.min(stored, CAPACITY))];
    }
}
