package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.store.InMemoryRideStore;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.store.UnavailableCause;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;

/**
 * A {@link RideStore} in Redis (one server or a Redis Cluster), shared by every LiftRide server that
 * points at it. Thread-safe. Rides go through {@link GroupCommit}: one {@code FCALL} of the
 * {@code liftride} function per batch and hash tag applies a batch atomically; the key layout is in
 * {@code liftride.lua}. Every call has a timeout; any failure becomes a {@link StoreUnavailableException}
 * (the API's 503), and the next request simply tries again.
 */
public final class RedisRideStore implements RideStore {
    static final String FUNCTION = "liftride_apply_rides";
    private static final String BACKFILL_FUNCTION = "liftride_backfill_rides_stored";
    private static final String ADD_RESORT_FUNCTION = "liftride_add_resort";
    private static final String ADD_SEASON_FUNCTION = "liftride_add_season";
    private static final String RESORTS = "lr:resorts";
    private static final String SEASONS = "lr:seasons:";
    /** On one server: the running total of rides stored, kept by the function. */
    private static final String RIDES_STORED = "lr:ridesStored";
    /** On one server: how many resort days and skier days the function has created. */
    private static final String DAYS = "lr:days";

    private static final String SKIER_DAYS = "lr:skierDays";
    /** Prefix of the hashes client -> entries of one kind that client created (one Redis server only). */
    private static final String CLIENTS = "lr:clients:";

    static final long REGISTRY_REFRESH_SECONDS = 10;
    private static final long REGISTRY_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(REGISTRY_REFRESH_SECONDS);
    private static final String SCRIPT = script();

    private final UnifiedJedis redis;
    private final boolean cluster;
    private final String description;
    private final Settings settings;
    private final GroupCommit commits;
    /** Redis's clock ({@code TIME}, in microseconds) at {@link #syncedAtNanos}; asked again every 10 s. */
    private long redisMicrosAtSync; // guarded by this

    private long syncedAtNanos; // guarded by this
    private boolean synced; // guarded by this
    /** On a cluster: (resort, season) -> when this JVM last wrote it into the registry (nanoTime). */
    private final Map<Long, Long> registered = new ConcurrentHashMap<>();

    private final LongAdder roundTrips = new LongAdder();
    private volatile String durability = "not checked yet";
    private volatile LongConsumer commandObserver = nanos -> {};
    private volatile IntConsumer batchObserver = rides -> {};
    private volatile Limits limits = Limits.DEFAULTS;

    /**
     * Timeouts and batch sizes; immutable.
     *
     * @param connectTimeout for a new connection to Redis
     * @param commandTimeout for one command's answer; a batch that reaches Redis later than this
     *     (minus {@code clockMargin}) after it was sent is refused by the function
     * @param requestTimeout how long a POST waits for its ride to be sent before answering 503
     * @param keyTtl how long an idempotency key is kept
     * @param committers batches in flight at most (each on its own connection)
     * @param maxBatch rides in one function call at most
     * @param clockMargin how much earlier than the command timeout the function's deadline is: covers
     *     the answer's way back and the error of the clock offset
     */
    public record Settings(
            Duration connectTimeout,
            Duration commandTimeout,
            Duration requestTimeout,
            Duration keyTtl,
            int committers,
            int maxBatch,
            int maxConnections,
            Duration clockMargin) {
        public static final Settings DEFAULTS = new Settings(
                Duration.ofMillis(500),
                Duration.ofMillis(1000),
                Duration.ofMillis(2000),
                Duration.ofHours(24),
                4,
                128,
                64,
                Duration.ofMillis(250));

        /**
         * {@link #DEFAULTS} with {@link #committersFor} this JVM's processors, tuned by the system properties
         * {@code liftride.redis.committers} and {@code liftride.redis.maxBatch} (positive integers).
         */
        public static Settings fromSystemProperties() {
            Settings d = DEFAULTS;
            return new Settings(
                    d.connectTimeout(),
                    d.commandTimeout(),
                    d.requestTimeout(),
                    d.keyTtl(),
                    (int) Limits.setting(
                            System::getProperty,
                            "liftride.redis.committers",
                            committersFor(Runtime.getRuntime().availableProcessors()),
                            1,
                            Integer.MAX_VALUE),
                    (int) Limits.setting(
                            System::getProperty, "liftride.redis.maxBatch", d.maxBatch(), 1, Integer.MAX_VALUE),
                    d.maxConnections(),
                    d.clockMargin());
        }

        /**
         * One committer with one CPU (more would only split the queue into smaller batches), else
         * {@link #DEFAULTS}' four, so several batches keep Redis busy while one waits for its answer.
         */
        public static int committersFor(int processors) {
            if (processors < 1) {
                throw new IllegalArgumentException("processors < 1: " + processors);
            }
            return processors == 1 ? 1 : DEFAULTS.committers();
        }
    }

    private RedisRideStore(UnifiedJedis redis, boolean cluster, String description, Settings settings) {
        this.redis = redis;
        this.cluster = cluster;
        this.description = description;
        this.settings = settings;
        this.commits = new GroupCommit(
                this::applyBatch,
                settings.committers(),
                settings.maxBatch(),
                65_536,
                settings.requestTimeout(),
                settings.commandTimeout());
    }

    /** A store on one Redis server without TLS or AUTH; see {@link #standalone(HostAndPort, RedisAccess, Settings)}. */
    public static RedisRideStore standalone(String host, int port, Settings settings) {
        return standalone(new HostAndPort(host, port), RedisAccess.PLAIN, settings);
    }

    /**
     * A store on one Redis server; connects lazily, so it starts even while Redis is down.
     *
     * @throws IllegalStateException in one line when Redis refuses the user or password (the password
     *     is never in it)
     */
    public static RedisRideStore standalone(HostAndPort node, RedisAccess access, Settings settings) {
        RedisClient client = RedisClient.builder()
                .hostAndPort(node)
                .clientConfig(clientConfig(settings, access))
                .poolConfig(poolConfig(settings))
                .build();
        String description = access.scheme("") + access.shownUserInfo() + node;
        return prepared(new RedisRideStore(client, false, description, settings));
    }

    /**
     * A store on a Redis Cluster, found through any of {@code nodes}; they must answer now.
     *
     * @throws IllegalStateException in one line when Redis refuses the user or password
     */
    public static RedisRideStore cluster(List<HostAndPort> nodes, RedisAccess access, Settings settings) {
        String description = access.scheme("-cluster")
                + access.shownUserInfo()
                + nodes.stream().map(HostAndPort::toString).collect(Collectors.joining(","));
        RedisClusterClient client;
        try {
            client = RedisClusterClient.builder()
                    .nodes(Set.copyOf(nodes))
                    .clientConfig(clientConfig(settings, access))
                    .poolConfig(poolConfig(settings))
                    .maxAttempts(1) // a retried FCALL could apply a batch twice; the client retries instead
                    .build();
        } catch (JedisException e) {
            throw refusedOr(e, description);
        }
        return prepared(new RedisRideStore(client, true, description, settings));
    }

    /** A store on a Redis Cluster without TLS or AUTH. */
    public static RedisRideStore cluster(List<HostAndPort> nodes, Settings settings) {
        return cluster(nodes, RedisAccess.PLAIN, settings);
    }

    private static JedisClientConfig clientConfig(Settings settings, RedisAccess access) {
        return access.applyTo(DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis((int) settings.connectTimeout().toMillis())
                        .socketTimeoutMillis((int) settings.commandTimeout().toMillis())
                        .clientName("liftride"))
                .build();
    }

    private static ConnectionPoolConfig poolConfig(Settings settings) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.maxConnections());
        pool.setMaxIdle(settings.maxConnections());
        pool.setMaxWait(settings.commandTimeout()); // never a request thread waiting forever for a connection
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    // ---- rides -------------------------------------------------------------------------------------

    @Override
    public RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        return commits.apply(pending(where, ride, idempotencyKey, client));
    }

    /** The ride goes into the group commit; the future completes when its batch is applied (or not). */
    @Override
    public CompletableFuture<RideOutcome> addRideAsync(
            SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        return commits.submit(pending(where, ride, idempotencyKey, client));
    }

    private PendingRide pending(SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        if (cluster) {
            register(where.resortId(), where.seasonId()); // on one server the function registers it
        }
        return new PendingRide(
                RedisKeys.tag(where.resortId(), where.seasonId()),
                where.dayId(),
                where.skierId(),
                ride.vertical(),
                idempotencyKey,
                RideStore.fingerprint(where, ride),
                client);
    }

    private List<RideOutcome> applyBatch(String tag, List<PendingRide> rides, long deadlineNanos) {
        List<String> args = new ArrayList<>(12 + 6 * rides.size());
        long margin = settings.clockMargin().toNanos();
        args.add(Long.toString(redisMicrosAt(deadlineNanos - margin)));
        args.add(Long.toString(settings.keyTtl().toSeconds()));
        args.add(cluster ? "" : resortName(RedisKeys.resortOf(tag)));
        Limits now = limits;
        args.addAll(FunctionCodes.arguments(now));
        args.addAll(FunctionCodes.budgets(now));
        for (PendingRide ride : rides) {
            args.add(Integer.toString(ride.day));
            args.add(Integer.toString(ride.skier));
            args.add(Integer.toString(ride.vertical));
            args.add(ride.key);
            args.add(Long.toString(ride.fingerprint));
            args.add(ride.client);
        }
        List<String> keys = cluster
                ? List.of(RedisKeys.rides(tag), RedisKeys.seasonTotals(tag))
                : List.of(
                        RedisKeys.rides(tag),
                        RedisKeys.seasonTotals(tag),
                        RESORTS,
                        SEASONS + RedisKeys.resortOf(tag),
                        RIDES_STORED,
                        DAYS,
                        SKIER_DAYS,
                        CLIENTS + "resorts",
                        CLIENTS + "seasons:" + RedisKeys.resortOf(tag),
                        CLIENTS + "days",
                        CLIENTS + "skierDays");
        batchObserver.accept(rides.size());
        Object reply = withFunctions(() -> call(() -> redis.fcall(FUNCTION, keys, args)));
        return FunctionCodes.outcomes(reply, rides, now);
    }

    /**
     * On a cluster, registers the resort and season before its first ride and again every {@value
     * #REGISTRY_REFRESH_SECONDS} s, so a registry Redis lost is rebuilt by the next rides.
     */
    private void register(int resortId, int seasonId) {
        long pair = ((long) resortId << 32) | (seasonId & 0xFFFF_FFFFL);
        Long at = registered.get(pair);
        if (at != null && System.nanoTime() - at < REGISTRY_REFRESH_NANOS) {
            return;
        }
        Limits now = limits;
        List<Object> codes = withFunctions(() -> pipelined(p -> {
            Response<Object> resort = p.fcall(
                    ADD_RESORT_FUNCTION,
                    List.of(RESORTS),
                    List.of(Integer.toString(resortId), resortName(resortId), Long.toString(now.get(Limit.RESORTS))));
            Response<Object> season = p.fcall(
                    ADD_SEASON_FUNCTION,
                    List.of(SEASONS + resortId),
                    List.of(Integer.toString(seasonId), Long.toString(now.get(Limit.SEASONS_PER_RESORT))));
            return () -> List.of(resort.get(), season.get());
        }));
        codes.forEach(code -> FunctionCodes.check((Long) code, new SkierDay(resortId, seasonId, 1, 1), now, null));
        registered.put(pair, System.nanoTime());
    }

    /** A seed resort's name, else "Resort N". */
    private static String resortName(int resortId) {
        List<String> seeds = InMemoryRideStore.seedResortNames();
        return resortId <= seeds.size() ? seeds.get(resortId - 1) : "Resort " + resortId;
    }

    // ---- reads: each costs a fixed number of round trips, whatever the number of seasons ------------

    @Override
    public OptionalLong dayVertical(SkierDay where) {
        String tag = RedisKeys.tag(where.resortId(), where.seasonId());
        String value = call(() -> redis.hget(RedisKeys.day(tag, where.dayId()), Integer.toString(where.skierId())));
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    /** Two round trips at most: the resorts' seasons (unless the query names them), then every total. */
    @Override
    public List<SeasonVertical> seasonVerticals(SkierVerticalQuery query) {
        Map<Integer, List<Integer>> seasonsByResort = query.seasons().isEmpty()
                ? seasonsOf(query.resorts())
                : query.resorts().stream().collect(Collectors.toMap(r -> r, r -> List.copyOf(query.seasons())));
        String skier = Integer.toString(query.skierId());
        List<Map.Entry<Integer, Response<String>>> totals = pipelined(p -> {
            List<Map.Entry<Integer, Response<String>>> queued = new ArrayList<>();
            seasonsByResort.forEach((resortId, seasons) -> {
                for (int season : seasons) {
                    String key = RedisKeys.seasonTotals(RedisKeys.tag(resortId, season));
                    queued.add(Map.entry(season, p.hget(key, skier)));
                }
            });
            return () -> queued;
        });
        TreeMap<Integer, Long> bySeason = new TreeMap<>();
        for (Map.Entry<Integer, Response<String>> total : totals) {
            String value = total.getValue().get();
            if (value != null) {
                bySeason.merge(total.getKey(), Long.parseLong(value), Long::sum);
            }
        }
        List<SeasonVertical> result = new ArrayList<>(bySeason.size());
        bySeason.forEach((season, vertical) -> result.add(new SeasonVertical(season, vertical)));
        return result;
    }

    /** Each resort's registered seasons, in one round trip. */
    private Map<Integer, List<Integer>> seasonsOf(Collection<Integer> resortIds) {
        Map<Integer, Response<Set<String>>> members = pipelined(p -> {
            Map<Integer, Response<Set<String>>> queued = new TreeMap<>();
            resortIds.forEach(resortId -> queued.put(resortId, p.smembers(SEASONS + resortId)));
            return () -> queued;
        });
        Map<Integer, List<Integer>> seasons = new TreeMap<>();
        members.forEach((resortId, set) -> seasons.put(
                resortId, set.get().stream().map(Integer::valueOf).sorted().toList()));
        return seasons;
    }

    /** One HSCAN round trip whose COUNT is about twice the resort limit (three if a seed resort was lost). */
    @Override
    public List<Resort> resorts() {
        int most = limits.count(Limit.RESORTS);
        List<Resort> resorts = scanResorts(most);
        if (resorts.size() < InMemoryRideStore.seedResortNames().size()
                || resorts.get(InMemoryRideStore.seedResortNames().size() - 1).id()
                        != InMemoryRideStore.seedResortNames().size()) {
            seed();
            resorts = scanResorts(most);
        }
        return resorts.size() > most ? List.copyOf(resorts.subList(0, most)) : resorts;
    }

    private List<Resort> scanResorts(int most) {
        ScanParams count = new ScanParams().count((int) Math.min(Integer.MAX_VALUE, 2L * most));
        List<Map.Entry<String, String>> page = call(() -> redis.hscan(RESORTS, ScanParams.SCAN_POINTER_START, count))
                .getResult();
        List<Resort> resorts = new ArrayList<>(page.size());
        page.forEach(entry -> resorts.add(new Resort(Integer.parseInt(entry.getKey()), entry.getValue())));
        resorts.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return resorts;
    }

    @Override
    public Optional<Resort> resort(int resortId) {
        String name = call(() -> redis.hget(RESORTS, Integer.toString(resortId)));
        if (name == null && resortId <= InMemoryRideStore.seedResortNames().size()) {
            seed(); // a seed resort always exists: Redis lost it, so write it back
            name = resortName(resortId);
        }
        return name == null ? Optional.empty() : Optional.of(new Resort(resortId, name));
    }

    @Override
    public List<Integer> seasons(int resortId) {
        Set<String> members = call(() -> redis.smembers(SEASONS + resortId));
        return members.stream().map(Integer::valueOf).sorted().toList();
    }

    @Override
    public boolean addSeason(int resortId, int season, String client) {
        if (resort(resortId).isEmpty()) {
            return false;
        }
        Limits now = limits;
        List<String> keys = new ArrayList<>(List.of(SEASONS + resortId));
        List<String> args =
                new ArrayList<>(List.of(Integer.toString(season), Long.toString(now.get(Limit.SEASONS_PER_RESORT))));
        if (client != null && !cluster) { // on a cluster the clients' hash would be in another slot
            keys.add(CLIENTS + "seasons:" + resortId);
            args.addAll(List.of(
                    client,
                    Long.toString(now.clientBudget(Limit.SEASONS_PER_RESORT)),
                    Integer.toString(FunctionCodes.MAX_CLIENTS)));
        }
        Object code = withFunctions(() -> call(() -> redis.fcall(ADD_SEASON_FUNCTION, keys, args)));
        FunctionCodes.check((Long) code, new SkierDay(resortId, season, 1, 1), now, client);
        return true;
    }

    @Override
    public int uniqueSkiers(ResortDay where) {
        String tag = RedisKeys.tag(where.resortId(), where.seasonId());
        return (int) (long) call(() -> redis.hlen(RedisKeys.day(tag, where.dayId())));
    }

    /**
     * On one server the function's running total; on a cluster (no key spans the slots) the sum of every
     * registered counter, in three round trips.
     */
    @Override
    public long ridesStored() {
        if (!cluster) {
            String total = call(() -> redis.get(RIDES_STORED));
            return total == null ? 0 : Long.parseLong(total);
        }
        Set<Integer> resortIds = new TreeSet<>();
        call(() -> redis.hkeys(RESORTS)).forEach(id -> resortIds.add(Integer.valueOf(id)));
        Map<Integer, List<Integer>> seasons = seasonsOf(resortIds);
        List<Response<String>> counts = pipelined(p -> {
            List<Response<String>> queued = new ArrayList<>();
            seasons.forEach((resortId, list) ->
                    list.forEach(season -> queued.add(p.get(RedisKeys.rides(RedisKeys.tag(resortId, season))))));
            return () -> queued;
        });
        long total = 0;
        for (Response<String> count : counts) {
            total += count.get() == null ? 0 : Long.parseLong(count.get());
        }
        return total;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Limits limits() {
        return limits;
    }

    /** On one server the function enforces every limit; on a cluster, resorts and seasons per resort only. */
    @Override
    public void setLimits(Limits limits) {
        this.limits = limits;
    }

    @Override
    public String durability() {
        return durability;
    }

    /** Rides queued for the next batch. */
    @Override
    public int queuedRides() {
        return commits.queued();
    }

    @Override
    public int pendingRides() {
        return commits.pending();
    }

    /** Requests this store has sent Redis so far (a pipeline counts once); for tests of read cost. */
    long roundTrips() {
        return roundTrips.sum();
    }

    @Override
    public int queueCapacity() {
        return commits.capacity();
    }

    /**
     * {@code INFO memory} in one round trip. Throws at {@value RedisMemory#FULL_SHARE} of maxmemory or
     * more: Redis may refuse a ride's writes.
     */
    @Override
    public void ping() {
        String info = cluster
                ? call(() -> new String(
                        (byte[]) redis.sendCommand(
                                RedisKeys.rides(RedisKeys.tag(1, 1)), Protocol.Command.INFO, "memory"),
                        StandardCharsets.UTF_8))
                : call(() -> redis.info("memory"));
        RedisMemory memory = RedisMemory.parse(info);
        if (memory.full()) {
            throw new StoreUnavailableException(
                    UnavailableCause.STORE_REFUSED, "Redis is full: it " + memory.describe());
        }
    }

    @Override
    public void observe(LongConsumer commandNanos, IntConsumer batchRides) {
        this.commandObserver = commandNanos;
        this.batchObserver = batchRides;
    }

    @Override
    public void close() {
        commits.close();
        try {
            redis.close();
        } catch (RuntimeException ignored) {
            // closing sockets of a Redis that is gone: nothing left to release
        }
    }

    // ---- Redis plumbing ------------------------------------------------------------------------------

    /** Loads the function and seed resorts if Redis answers now; refuses to start if Redis refuses the user. */
    private static RedisRideStore prepared(RedisRideStore store) {
        try {
            store.loadFunction();
            store.seed();
            store.backfillRidesStored();
            store.durability = RedisDurability.check(store.redis, store.cluster, store.description);
        } catch (StoreUnavailableException e) {
            RuntimeException refused = refusedOr(e, store.description);
            if (refused instanceof IllegalStateException) {
                store.close();
                throw refused;
            }
            // Redis is not up yet: requests answer 503 until it is, then the function is loaded on demand
            store.durability = "not checked: Redis did not answer at start-up (" + e.getMessage() + ")";
        }
        return store;
    }

    /**
     * An IllegalStateException in one line if {@code e} says Redis refused the user or password (its
     * message never holds the password: Redis does not repeat it), else a StoreUnavailableException.
     */
    private static RuntimeException refusedOr(RuntimeException e, String where) {
        JedisAccessControlException denied = accessDenied(e);
        if (denied != null) {
            return new IllegalStateException("LiftRide cannot start: Redis at " + where
                    + " refused the user or password (" + denied.getMessage() + "); check the user in the"
                    + " store URL and LIFTRIDE_REDIS_PASSWORD");
        }
        return e instanceof StoreUnavailableException s
                ? s
                : new StoreUnavailableException(UnavailableCause.STORE_UNREACHABLE, e.getMessage(), e);
    }

    /**
     * The refusal among {@code t}'s causes and suppressed exceptions, or null (a cluster client hides the
     * nodes' errors as suppressed exceptions).
     */
    private static JedisAccessControlException accessDenied(Throwable t) {
        if (t == null) {
            return null;
        }
        if (t instanceof JedisAccessControlException denied) {
            return denied;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            JedisAccessControlException denied = accessDenied(suppressed);
            if (denied != null) {
                return denied;
            }
        }
        return t.getCause() == t ? null : accessDenied(t.getCause());
    }

    /**
     * On one server with rides but no {@code lr:ridesStored}, sets it to the sum of the resort-seasons'
     * counters in one atomic function call, so no batch runs between the sum and the write.
     */
    private void backfillRidesStored() {
        if (cluster) {
            return; // a cluster sums the per-season counters on every read: no running total to fill
        }
        call(() -> redis.fcall(BACKFILL_FUNCTION, List.of(RIDES_STORED, RESORTS), List.of(SEASONS)));
    }

    /** Resorts 1..10 exist in every store; HSETNX keeps a name another server wrote first. One round trip. */
    private void seed() {
        List<String> names = InMemoryRideStore.seedResortNames();
        pipelined(p -> {
            for (int i = 0; i < names.size(); i++) {
                p.hsetnx(RESORTS, Integer.toString(i + 1), names.get(i));
            }
            return () -> null;
        });
    }

    /**
     * Sends what {@code queue} puts in one pipeline (one round trip per Redis node), then returns what
     * the supplier it returned gives; any failure becomes the API's 503.
     */
    private <T> T pipelined(Function<AbstractPipeline, Supplier<T>> queue) {
        return call(() -> {
            try (AbstractPipeline pipeline = redis.pipelined()) {
                Supplier<T> result = queue.apply(pipeline);
                pipeline.sync();
                return result.get();
            }
        });
    }

    /** FUNCTION LOAD REPLACE on the server, or on every master of the cluster. */
    private void loadFunction() {
        if (!cluster) {
            call(() -> redis.functionLoadReplace(SCRIPT));
            return;
        }
        for (Map.Entry<String, ConnectionPool> node :
                ((RedisClusterClient) redis).getClusterNodes().entrySet()) {
            try (Connection connection = node.getValue().getResource()) {
                connection.executeCommand(new CommandArguments(Protocol.Command.FUNCTION)
                        .add("LOAD")
                        .add("REPLACE")
                        .add(SCRIPT));
            } catch (JedisDataException replica) {
                // a replica refuses writes; it gets the function from its master
            } catch (JedisException e) {
                throw new StoreUnavailableException(
                        UnavailableCause.STORE_UNREACHABLE, "cannot load the liftride function on " + node.getKey(), e);
            }
        }
    }

    /**
     * Redis's clock at this JVM's {@code nanoTime}, so a batch carries a deadline Redis checks itself: the middle of
     * a {@code TIME} round trip is taken as the moment of its answer (the error, half a round trip, is within the
     * clock margin).
     */
    private synchronized long redisMicrosAt(long nanoTime) {
        long before = System.nanoTime();
        if (!synced || before - syncedAtNanos > TimeUnit.SECONDS.toNanos(10)) {
            Object reply = cluster
                    ? redis.sendCommand(
                            RedisKeys.rides(RedisKeys.tag(1, 1)).getBytes(StandardCharsets.UTF_8),
                            Protocol.Command.TIME)
                    : redis.sendCommand(Protocol.Command.TIME);
            long after = System.nanoTime();
            List<?> parts = (List<?>) reply;
            long seconds = Long.parseLong(new String((byte[]) parts.get(0), StandardCharsets.US_ASCII));
            redisMicrosAtSync =
                    seconds * 1_000_000L + Long.parseLong(new String((byte[]) parts.get(1), StandardCharsets.US_ASCII));
            syncedAtNanos = before + (after - before) / 2;
            synced = true;
        }
        return redisMicrosAtSync + (nanoTime - syncedAtNanos) / 1_000L;
    }

    /** Runs one Redis call (one round trip, timed for {@link #observe}); a Jedis failure becomes a 503. */
    private <T> T call(Supplier<T> command) {
        roundTrips.increment();
        long startNanos = System.nanoTime();
        try {
            return command.get();
        } catch (JedisDataException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("Function not found")) {
                throw new FunctionMissing(e);
            }
            if (message.startsWith("DEADLINE")) {
                throw new StoreUnavailableException(
                        UnavailableCause.STORE_DEADLINE, "Redis took the batch after its deadline: not applied", e);
            }
            throw new StoreUnavailableException(
                    UnavailableCause.STORE_REFUSED, "Redis refused the command: " + message, e);
        } catch (JedisException e) {
            throw new StoreUnavailableException(
                    UnavailableCause.STORE_UNREACHABLE, "Redis did not answer: " + e.getMessage(), e);
        } finally {
            commandObserver.accept(System.nanoTime() - startNanos);
        }
    }

    /**
     * Runs {@code calls}; when Redis lacks the functions, loads them and runs it again (safe: Redis
     * refused the call).
     */
    private <T> T withFunctions(Supplier<T> calls) {
        try {
            return calls.get();
        } catch (FunctionMissing e) {
            loadFunction();
            return calls.get();
        }
    }

    private static String script() {
        try (InputStream in = RedisRideStore.class.getResourceAsStream("liftride.lua")) {
            if (in == null) {
                throw new IllegalStateException("liftride.lua is missing beside " + RedisRideStore.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Redis does not have the function (it started empty): load it and send the call again. */
    private static final class FunctionMissing extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FunctionMissing(Throwable cause) {
            super("the liftride function is not loaded in Redis", cause);
        }
    }
}
