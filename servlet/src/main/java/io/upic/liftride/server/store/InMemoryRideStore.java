package io.upic.liftride.server.store;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link RideStore} in memory; thread-safe and lock-free on the ride path (concurrent maps and
 * atomic counters). It keeps aggregates, not rides: memory grows with the number of different
 * (resort, season, day, skier) and (skier, resort, season) combinations, about 80 bytes each, never
 * with the number of rides. A standard load run (20,000 skiers, one day, 180,000 rides) needs a few
 * megabytes however often it is repeated. Idempotency keys are remembered for 24 hours, at most
 * {@value #MAX_KEYS} of them (about 150 bytes each), the oldest forgotten first.
 *
 * <p>Readers see each ride's effects atomically per counter, not across counters: a GET racing a POST
 * may see the day vertical updated before the season total. {@link #ridesStored()} is incremented
 * last, so once it counts a ride, every aggregate includes it.
 */
public final class InMemoryRideStore implements RideStore {
    /** Keys pack IDs into a long; these are the largest values the packing has room for. */
    private static final int MAX_SEASON = 9999;

    private static final int MAX_DAY = 511;
    /** How many idempotency keys the store remembers at most. */
    public static final int MAX_KEYS = 1_000_000;

    private static final List<String> SEED_RESORT_NAMES = List.of(
            "Mission Ridge",
            "Crystal Mountain",
            "Stevens Pass",
            "Summit at Snoqualmie",
            "Mt. Baker",
            "White Pass",
            "49 Degrees North",
            "Mt. Spokane",
            "Loup Loup",
            "Bluewood");

    private final ConcurrentHashMap<Integer, ResortEntry> resorts = new ConcurrentHashMap<>();
    /** (resort, season, day) -> skierID -> vertical. A day's map size is its unique skier count. */
    private final ConcurrentHashMap<Long, ConcurrentHashMap<Integer, AtomicLong>> dayVerticals =
            new ConcurrentHashMap<>();
    /** (resort, season) -> skierID -> vertical. */
    private final ConcurrentHashMap<Long, ConcurrentHashMap<Integer, AtomicLong>> seasonTotals =
            new ConcurrentHashMap<>();

    private final LongAdder ridesStored = new LongAdder();
    private final RecentKeys keys = new RecentKeys(Duration.ofHours(24), MAX_KEYS, System::nanoTime);

    /** An empty store: no resorts until rides arrive. */
    public InMemoryRideStore() {}

    /** A store knowing resorts 1..10 (Washington state resorts), without seasons or rides. */
    public static InMemoryRideStore withSeedResorts() {
        InMemoryRideStore store = new InMemoryRideStore();
        for (int i = 0; i < SEED_RESORT_NAMES.size(); i++) {
            store.addResort(new Resort(i + 1, SEED_RESORT_NAMES.get(i)));
        }
        return store;
    }

    /** The names of resorts 1..10, which every store knows from the start. */
    public static List<String> seedResortNames() {
        return SEED_RESORT_NAMES;
    }

    /** Registers a resort; an existing one with that id keeps its name. */
    public void addResort(Resort resort) {
        if (resort.id() < 1) {
            throw new IllegalArgumentException("resortID must be >= 1, got " + resort.id());
        }
        resorts.putIfAbsent(resort.id(), new ResortEntry(resort));
    }

    @Override
    public RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey) {
        check(where.resortId(), where.seasonId(), where.dayId());
        checkSkier(where.skierId());
        if (idempotencyKey != null) {
            String scoped = where.resortId() + ":" + where.seasonId() + ":" + idempotencyKey;
            switch (keys.claim(scoped, RideKey.fingerprint(where, ride))) {
                case SAME_RIDE:
                    return RideOutcome.REPLAYED;
                case OTHER_RIDE:
                    return RideOutcome.KEY_REUSED;
                default:
                    break;
            }
        }
        resorts.computeIfAbsent(where.resortId(), id -> new ResortEntry(new Resort(id, "Resort " + id)))
                .seasons
                .add(where.seasonId());
        Integer skier = where.skierId(); // boxed once for both maps
        int vertical = ride.vertical();
        counter(map(dayVerticals, dayKey(where.resortId(), where.seasonId(), where.dayId())), skier)
                .addAndGet(vertical);
        counter(map(seasonTotals, seasonKey(where.resortId(), where.seasonId())), skier)
                .addAndGet(vertical);
        ridesStored.increment();
        return RideOutcome.STORED;
    }

    @Override
    public OptionalLong dayVertical(SkierDay where) {
        check(where.resortId(), where.seasonId(), where.dayId());
        checkSkier(where.skierId());
        Map<Integer, AtomicLong> day = dayVerticals.get(dayKey(where.resortId(), where.seasonId(), where.dayId()));
        AtomicLong vertical = day == null ? null : day.get(where.skierId());
        return vertical == null ? OptionalLong.empty() : OptionalLong.of(vertical.get());
    }

    @Override
    public List<SeasonVertical> seasonVerticals(SkierVerticalQuery query) {
        checkSkier(query.skierId());
        TreeMap<Integer, Long> bySeason = new TreeMap<>();
        for (int resortId : query.resorts()) {
            ResortEntry resort = resorts.get(resortId);
            if (resort == null) {
                continue;
            }
            Set<Integer> seasons = query.seasons().isEmpty() ? resort.seasons : query.seasons();
            for (int season : seasons) {
                checkSeason(season);
                Map<Integer, AtomicLong> skiers = seasonTotals.get(seasonKey(resortId, season));
                AtomicLong total = skiers == null ? null : skiers.get(query.skierId());
                if (total != null) {
                    bySeason.merge(season, total.get(), Long::sum);
                }
            }
        }
        List<SeasonVertical> result = new ArrayList<>(bySeason.size());
        bySeason.forEach((season, vertical) -> result.add(new SeasonVertical(season, vertical)));
        return result;
    }

    @Override
    public List<Resort> resorts() {
        return resorts.values().stream()
                .map(entry -> entry.resort)
                .sorted((a, b) -> Integer.compare(a.id(), b.id()))
                .toList();
    }

    @Override
    public Optional<Resort> resort(int resortId) {
        ResortEntry entry = resorts.get(resortId);
        return entry == null ? Optional.empty() : Optional.of(entry.resort);
    }

    @Override
    public List<Integer> seasons(int resortId) {
        ResortEntry entry = resorts.get(resortId);
        return entry == null ? List.of() : entry.seasons.stream().sorted().toList();
    }

    @Override
    public boolean addSeason(int resortId, int season) {
        checkSeason(season);
        ResortEntry entry = resorts.get(resortId);
        if (entry == null) {
            return false;
        }
        entry.seasons.add(season);
        return true;
    }

    @Override
    public int uniqueSkiers(ResortDay where) {
        check(where.resortId(), where.seasonId(), where.dayId());
        Map<Integer, AtomicLong> day = dayVerticals.get(dayKey(where.resortId(), where.seasonId(), where.dayId()));
        return day == null ? 0 : day.size();
    }

    @Override
    public long ridesStored() {
        return ridesStored.sum();
    }

    @Override
    public String description() {
        return "memory";
    }

    private static ConcurrentHashMap<Integer, AtomicLong> map(
            ConcurrentHashMap<Long, ConcurrentHashMap<Integer, AtomicLong>> maps, long key) {
        ConcurrentHashMap<Integer, AtomicLong> map = maps.get(key);
        return map != null ? map : maps.computeIfAbsent(key, k -> new ConcurrentHashMap<>(1 << 10));
    }

    private static AtomicLong counter(ConcurrentHashMap<Integer, AtomicLong> map, Integer key) {
        AtomicLong counter = map.get(key);
        return counter != null ? counter : map.computeIfAbsent(key, k -> new AtomicLong());
    }

    /** resort (31 bits) | season (14 bits) | day (9 bits). */
    private static long dayKey(int resort, int season, int day) {
        return ((long) resort << 23) | ((long) season << 9) | day;
    }

    /** resort (31 bits) | season (14 bits). */
    private static long seasonKey(int resort, int season) {
        return ((long) resort << 14) | season;
    }

    private static void check(int resort, int season, int day) {
        if (resort < 1) {
            throw new IllegalArgumentException("resortID must be >= 1, got " + resort);
        }
        checkSeason(season);
        if (day < 1 || day > MAX_DAY) {
            throw new IllegalArgumentException("dayID must be in 1.." + MAX_DAY + ", got " + day);
        }
    }

    private static void checkSeason(int season) {
        if (season < 0 || season > MAX_SEASON) {
            throw new IllegalArgumentException("seasonID must be in 0.." + MAX_SEASON + ", got " + season);
        }
    }

    private static void checkSkier(int skier) {
        if (skier < 1) {
            throw new IllegalArgumentException("skierID must be >= 1, got " + skier);
        }
    }

    /** A resort and its seasons; the season set is concurrent, the resort immutable. */
    private static final class ResortEntry {
        final Resort resort;
        final Set<Integer> seasons = ConcurrentHashMap.newKeySet();

        ResortEntry(Resort resort) {
            this.resort = resort;
        }
    }
}
