package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
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
 * A {@link RideStore} in memory; thread-safe and lock-free on the ride path. It keeps aggregates, not rides,
 * so memory grows with distinct skier days, never with rides. Places are reserved against the {@link Limits}
 * (and each client's {@link Quota}) before entries are created, so racing requests never pass a limit. Readers
 * see each counter atomically, not across counters; {@link #ridesStored()} is incremented last, so once it
 * counts a ride every aggregate includes it.
 */
public final class InMemoryRideStore implements RideStore {
    /** Keys pack IDs into a long; these are the largest values the packing has room for. */
    private static final int MAX_SEASON = 9999;

    private static final int MAX_DAY = 511;

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
    /** (resort, season, day) -> skierID -> vertical and keys. A day's map size is its unique skier count. */
    private final ConcurrentHashMap<Long, ConcurrentHashMap<Integer, SkierDayEntry>> dayVerticals =
            new ConcurrentHashMap<>();
    /** (resort, season) -> skierID -> vertical. */
    private final ConcurrentHashMap<Long, ConcurrentHashMap<Integer, AtomicLong>> seasonTotals =
            new ConcurrentHashMap<>();

    private final LongAdder ridesStored = new LongAdder();
    private volatile Limits limits;
    private final Quota resortQuota;
    private final Quota dayQuota;
    private final Quota skierDayQuota;

    /** An empty store with the default limits: no resorts until rides arrive. */
    public InMemoryRideStore() {
        this(Limits.DEFAULTS);
    }

    /** An empty store bounded by {@code limits}. */
    public InMemoryRideStore(Limits limits) {
        this.limits = limits;
        this.resortQuota = new Quota(Limit.RESORTS, limits);
        this.dayQuota = new Quota(Limit.RESORT_DAYS, limits);
        this.skierDayQuota = new Quota(Limit.SKIER_DAYS, limits);
    }

    /** A store knowing resorts 1..10 (Washington state resorts), without seasons or rides. */
    public static InMemoryRideStore withSeedResorts() {
        return withSeedResorts(Limits.DEFAULTS);
    }

    /** {@link #withSeedResorts()} bounded by {@code limits} (the seeded resorts count towards them). */
    public static InMemoryRideStore withSeedResorts(Limits limits) {
        InMemoryRideStore store = new InMemoryRideStore(limits);
        for (int i = 0; i < SEED_RESORT_NAMES.size(); i++) {
            store.addResort(new Resort(i + 1, SEED_RESORT_NAMES.get(i)));
        }
        return store;
    }

    /** The names of resorts 1..10, which every store knows from the start. */
    public static List<String> seedResortNames() {
        return SEED_RESORT_NAMES;
    }

    /** Registers a resort; an existing one with that id keeps its name. Throws LimitReachedException when full. */
    public void addResort(Resort resort) {
        if (resort.id() < 1) {
            throw new IllegalArgumentException("resortID must be >= 1, got " + resort.id());
        }
        if (resorts.containsKey(resort.id())) {
            return;
        }
        if (resortQuota.reserveUnless("resort " + resort.id(), null, () -> resorts.containsKey(resort.id()))
                && resorts.putIfAbsent(resort.id(), new ResortEntry(resort)) != null) {
            resortQuota.release(null);
        }
    }

    @Override
    public RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        SkierDayEntry day = skierDay(where, client);
        if (idempotencyKey != null) {
            RideOutcome claim = day.claim(
                    SkierDayEntry.digest(idempotencyKey), RideStore.fingerprint(where, ride), System.nanoTime());
            if (claim != RideOutcome.STORED) {
                return claim;
            }
        }
        int vertical = ride.vertical();
        day.addAndGet(vertical);
        // at most one (skier, resort, season) entry per skier day: bounded by the skier-day limit
        counter(map(seasonTotals, seasonKey(where.resortId(), where.seasonId())), where.skierId())
                .addAndGet(vertical);
        ridesStored.increment();
        return RideOutcome.STORED;
    }

    /**
     * The ride's skier day, created with whatever else it needs (resort, season, day) when new: places
     * reserved first, so a refusal ({@link LimitReachedException}) creates nothing.
     */
    private SkierDayEntry skierDay(SkierDay where, String client) {
        long dayKey = dayKey(where.resortId(), where.seasonId(), where.dayId());
        Admission admission = admit(where, dayKey, client);
        try {
            resortOf(where, admission);
        } catch (LimitReachedException full) {
            admission.releaseDayPlaces();
            throw full;
        }
        ConcurrentHashMap<Integer, SkierDayEntry> day = dayVerticals.get(dayKey);
        if (day == null) {
            ConcurrentHashMap<Integer, SkierDayEntry> fresh = new ConcurrentHashMap<>();
            day = dayVerticals.putIfAbsent(dayKey, fresh);
            if (day == null) {
                day = fresh;
                admission.dayReserved = false; // used
            }
        }
        if (admission.dayReserved) {
            dayQuota.release(admission.client); // another request created the day meanwhile
        }
        SkierDayEntry entry = day.get(where.skierId());
        if (entry == null) {
            SkierDayEntry fresh = new SkierDayEntry();
            entry = day.putIfAbsent(where.skierId(), fresh);
            if (entry == null) {
                entry = fresh;
                admission.skierDayReserved = false; // used
            }
        }
        if (admission.skierDayReserved) {
            skierDayQuota.release(admission.client);
        }
        return entry;
    }

    /** The ride's resort with its season, created if it was new (its places reserved by {@link #admit}). */
    private ResortEntry resortOf(SkierDay where, Admission admission) {
        ResortEntry resort = admission.resort;
        String client = admission.client;
        if (resort == null) {
            ResortEntry fresh = new ResortEntry(new Resort(where.resortId(), "Resort " + where.resortId()));
            resort = resorts.putIfAbsent(where.resortId(), fresh);
            if (resort == null) {
                // published: other requests may have added this season, or filled the quota, meanwhile
                boolean reserved = fresh.seasonQuota.reserveUnless(
                        seasonAt(where), client, () -> fresh.seasons.contains(where.seasonId()));
                if (reserved && !fresh.seasons.add(where.seasonId())) {
                    fresh.seasonQuota.release(client);
                }
                return fresh;
            }
            resortQuota.release(client); // another request created the resort meanwhile
            ResortEntry found = resort;
            admission.seasonReserved = !found.seasons.contains(where.seasonId())
                    && found.seasonQuota.reserveUnless(
                            seasonAt(where), client, () -> found.seasons.contains(where.seasonId()));
        }
        if (admission.seasonReserved && !resort.seasons.add(where.seasonId())) {
            resort.seasonQuota.release(client); // another request added the season meanwhile
        }
        return resort;
    }

    /** Reserves a place for each entry the ride would create; on a refusal gives them back and throws. */
    private Admission admit(SkierDay where, long dayKey, String client) {
        Admission admission = new Admission(client);
        admission.resort = resorts.get(where.resortId());
        try {
            ResortEntry resort = admission.resort;
            if (resort == null) {
                admission.resortReserved = resortQuota.reserveUnless(
                        LimitReachedException.entry(Limit.RESORTS, where),
                        client,
                        () -> resorts.containsKey(where.resortId()));
                if (!admission.resortReserved) {
                    admission.resort = resorts.get(where.resortId()); // created meanwhile
                    resort = admission.resort;
                }
            }
            if (resort != null && !resort.seasons.contains(where.seasonId())) {
                ResortEntry r = resort;
                admission.seasonReserved = r.seasonQuota.reserveUnless(
                        seasonAt(where), client, () -> r.seasons.contains(where.seasonId()));
            }
            Map<Integer, SkierDayEntry> day = dayVerticals.get(dayKey);
            if (day == null) {
                admission.dayReserved = dayQuota.reserveUnless(
                        LimitReachedException.entry(Limit.RESORT_DAYS, where),
                        client,
                        () -> dayVerticals.containsKey(dayKey));
            }
            if (day == null || !day.containsKey(where.skierId())) {
                admission.skierDayReserved = skierDayQuota.reserveUnless(
                        LimitReachedException.entry(Limit.SKIER_DAYS, where),
                        client,
                        () -> hasSkierDay(dayKey, where.skierId()));
            }
        } catch (LimitReachedException full) {
            if (admission.resortReserved) {
                resortQuota.release(client);
            }
            if (admission.seasonReserved) {
                admission.resort.seasonQuota.release(client);
            }
            admission.releaseDayPlaces();
            throw full;
        }
        return admission;
    }

    private boolean hasSkierDay(long dayKey, int skier) {
        Map<Integer, SkierDayEntry> day = dayVerticals.get(dayKey);
        return day != null && day.containsKey(skier);
    }

    private static String seasonAt(SkierDay where) {
        return LimitReachedException.entry(Limit.SEASONS_PER_RESORT, where);
    }

    @Override
    public OptionalLong dayVertical(SkierDay where) {
        Map<Integer, SkierDayEntry> day = dayVerticals.get(dayKey(where.resortId(), where.seasonId(), where.dayId()));
        SkierDayEntry vertical = day == null ? null : day.get(where.skierId());
        return vertical == null ? OptionalLong.empty() : OptionalLong.of(vertical.get());
    }

    @Override
    public List<SeasonVertical> seasonVerticals(SkierVerticalQuery query) {
        TreeMap<Integer, Long> bySeason = new TreeMap<>();
        for (int resortId : query.resorts()) {
            ResortEntry resort = resorts.get(resortId);
            if (resort == null) {
                continue;
            }
            Set<Integer> seasons = query.seasons().isEmpty() ? resort.seasons : query.seasons();
            for (int season : seasons) {
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
                .limit(limits.count(Limit.RESORTS))
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
    public boolean addSeason(int resortId, int season, String client) {
        ResortEntry entry = resorts.get(resortId);
        if (entry == null) {
            return false;
        }
        if (!entry.seasons.contains(season)) {
            if (entry.seasonQuota.reserveUnless(
                            "season " + season + " at resort " + resortId, client, () -> entry.seasons.contains(season))
                    && !entry.seasons.add(season)) {
                entry.seasonQuota.release(client);
            }
        }
        return true;
    }

    @Override
    public int uniqueSkiers(ResortDay where) {
        Map<Integer, SkierDayEntry> day = dayVerticals.get(dayKey(where.resortId(), where.seasonId(), where.dayId()));
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
        return map != null ? map : maps.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
    }

    private static AtomicLong counter(ConcurrentHashMap<Integer, AtomicLong> map, Integer key) {
        AtomicLong counter = map.get(key);
        return counter != null ? counter : map.computeIfAbsent(key, k -> new AtomicLong());
    }

    /** resort (31 bits) | season (14 bits) | day (9 bits); every ride, read and count packs its day here. */
    private static long dayKey(int resort, int season, int day) {
        if (resort < 1 || season < 0 || season > MAX_SEASON || day < 1 || day > MAX_DAY) {
            throw new IllegalArgumentException("the packed keys hold resortID >= 1, seasonID 0.." + MAX_SEASON
                    + " and dayID 1.." + MAX_DAY + ", got " + resort + ", " + season + ", " + day);
        }
        return ((long) resort << 23) | ((long) season << 9) | day;
    }

    /** resort (31 bits) | season (14 bits). */
    private static long seasonKey(int resort, int season) {
        return ((long) resort << 14) | season;
    }

    @Override
    public Limits limits() {
        return limits;
    }

    /** Every quota takes its new maximum at once; the idempotency keys' byte limit stays as it started. */
    @Override
    public void setLimits(Limits limits) {
        this.limits = limits;
        resortQuota.setLimits(limits);
        dayQuota.setLimits(limits);
        skierDayQuota.setLimits(limits);
        resorts.values().forEach(resort -> resort.seasonQuota.setLimits(limits));
    }

    /** A resort and its seasons, at most the per-resort limit; the season set is concurrent, the resort immutable. */
    private final class ResortEntry {
        final Resort resort;
        final Set<Integer> seasons = ConcurrentHashMap.newKeySet();
        final Quota seasonQuota = new Quota(Limit.SEASONS_PER_RESORT, limits);

        ResortEntry(Resort resort) {
            this.resort = resort;
        }
    }

    /** The places one ride reserved in {@link #admit}; used by one request thread only. */
    private final class Admission {
        /** Who sends the ride, or null. */
        final String client;

        /** The ride's resort when it existed at admission; null when the ride creates it. */
        ResortEntry resort;

        boolean resortReserved;
        boolean seasonReserved;
        boolean dayReserved;
        boolean skierDayReserved;

        Admission(String client) {
            this.client = client;
        }

        void releaseDayPlaces() {
            if (dayReserved) {
                dayQuota.release(client);
                dayReserved = false;
            }
            if (skierDayReserved) {
                skierDayQuota.release(client);
                skierDayReserved = false;
            }
        }
    }
}
