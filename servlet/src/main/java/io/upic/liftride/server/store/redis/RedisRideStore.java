package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.store.InMemoryRideStore;
import io.upic.liftride.server.store.RideKey;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreObserver;
import io.upic.liftride.server.store.StoreUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
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
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A {@link RideStore} in Redis (one server or a Redis Cluster), shared by every LiftRide server that
 * points at it. Thread-safe. Rides go through {@link GroupCommit}: one {@code FCALL} of the
 * {@code liftride} function per batch and hash tag applies a batch atomically, idempotency check
 * included, and refuses it if it arrives after its deadline. The layout of the keys is described in
 * {@code liftride.lua} beside this class; resorts and their seasons are kept in {@code lr:resorts}
 * (hash id -> name) and {@code lr:seasons:ID} (set).
 *
 * <p>Jedis is synchronous and sends a command once: nothing is queued while Redis is away and
 * replayed later. Every call has a timeout; any failure becomes a {@link StoreUnavailableException}
 * (the API's 503), and the next request simply tries again, so the store recovers by itself.
 */
public final class RedisRideStore implements RideStore {
    static final String FUNCTION = "liftride_apply_rides";
    private static final String RESORTS = "lr:resorts";
    private static final String SEASONS = "lr:seasons:";
    private static final String SCRIPT = script();

    private final UnifiedJedis redis;
    private final boolean cluster;
    private final String description;
    private final Settings settings;
    private final GroupCommit commits;
    private final RedisClock clock;
    /** (resort, season) pairs known to be in the registry; a pair is never removed from it. */
    private final Set<Long> registered = ConcurrentHashMap.newKeySet();

    private volatile boolean seeded;
    private volatile StoreObserver observer = StoreObserver.NONE;

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
    }

    private RedisRideStore(UnifiedJedis redis, boolean cluster, String description, Settings settings) {
        this.redis = redis;
        this.cluster = cluster;
        this.description = description;
        this.settings = settings;
        this.clock = new RedisClock(this::redisTimeMicros);
        this.commits = new GroupCommit(
                this::applyBatch,
                settings.committers(),
                settings.maxBatch(),
                65_536,
                settings.requestTimeout(),
                settings.commandTimeout());
    }

    /** A store on one Redis server; connects lazily, so it starts even while Redis is down. */
    public static RedisRideStore standalone(String host, int port, Settings settings) {
        RedisClient client = RedisClient.builder()
                .hostAndPort(host, port)
                .clientConfig(clientConfig(settings))
                .poolConfig(poolConfig(settings))
                .build();
        RedisRideStore store = new RedisRideStore(client, false, "redis://" + host + ":" + port, settings);
        store.tryPrepare();
        return store;
    }

    /** A store on a Redis Cluster, found through any of {@code nodes}; they must answer now. */
    public static RedisRideStore cluster(List<HostAndPort> nodes, Settings settings) {
        RedisClusterClient client = RedisClusterClient.builder()
                .nodes(Set.copyOf(nodes))
                .clientConfig(clientConfig(settings))
                .poolConfig(poolConfig(settings))
                .maxAttempts(1) // a retried FCALL could apply a batch twice; the client retries instead
                .build();
        StringBuilder description = new StringBuilder("redis-cluster://");
        for (int i = 0; i < nodes.size(); i++) {
            description.append(i == 0 ? "" : ",").append(nodes.get(i));
        }
        RedisRideStore store = new RedisRideStore(client, true, description.toString(), settings);
        store.tryPrepare();
        return store;
    }

    private static JedisClientConfig clientConfig(Settings settings) {
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) settings.connectTimeout().toMillis())
                .socketTimeoutMillis((int) settings.commandTimeout().toMillis())
                .clientName("liftride")
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
    public RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey) {
        register(where.resortId(), where.seasonId());
        return commits.apply(new PendingRide(
                RedisKeys.tag(where.resortId(), where.seasonId()),
                where.dayId(),
                where.skierId(),
                ride.vertical(),
                idempotencyKey,
                RideKey.fingerprint(where, ride)));
    }

    private List<RideOutcome> applyBatch(String tag, List<PendingRide> rides, long deadlineNanos) {
        List<String> args = new ArrayList<>(2 + 5 * rides.size());
        long margin = settings.clockMargin().toNanos();
        args.add(Long.toString(clock.redisMicrosAt(deadlineNanos - margin)));
        args.add(Long.toString(settings.keyTtl().toSeconds()));
        for (PendingRide ride : rides) {
            args.add(Integer.toString(ride.day));
            args.add(Integer.toString(ride.skier));
            args.add(Integer.toString(ride.vertical));
            args.add(ride.key);
            args.add(Long.toString(ride.fingerprint));
        }
        List<String> keys = List.of(RedisKeys.rides(tag), RedisKeys.seasonTotals(tag));
        observer.batch(rides.size());
        Object reply;
        try {
            reply = call(() -> redis.fcall(FUNCTION, keys, args));
        } catch (FunctionMissing e) {
            loadFunction(); // Redis lost it (a new, empty server): the call was refused, so sending it again is safe
            reply = call(() -> redis.fcall(FUNCTION, keys, args));
        }
        return outcomes(reply, rides.size());
    }

    private static List<RideOutcome> outcomes(Object reply, int rides) {
        if (!(reply instanceof List<?> codes) || codes.size() != rides) {
            throw new StoreUnavailableException("Redis answered the batch of " + rides + " rides with " + reply);
        }
        List<RideOutcome> outcomes = new ArrayList<>(rides);
        for (Object code : codes) {
            long c = (Long) code;
            outcomes.add(c == 1 ? RideOutcome.STORED : c == 0 ? RideOutcome.REPLAYED : RideOutcome.KEY_REUSED);
        }
        return outcomes;
    }

    /** Puts the resort (if new, as "Resort N") and season into the registry before its first ride. */
    private void register(int resortId, int seasonId) {
        long pair = ((long) resortId << 16) | seasonId;
        if (registered.contains(pair)) {
            return;
        }
        seed();
        call(() -> redis.hsetnx(RESORTS, Integer.toString(resortId), "Resort " + resortId));
        call(() -> redis.sadd(SEASONS + resortId, Integer.toString(seasonId)));
        registered.add(pair);
    }

    // ---- reads -------------------------------------------------------------------------------------

    @Override
    public OptionalLong dayVertical(SkierDay where) {
        String tag = RedisKeys.tag(where.resortId(), where.seasonId());
        String value = call(() -> redis.hget(RedisKeys.day(tag, where.dayId()), Integer.toString(where.skierId())));
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    @Override
    public List<SeasonVertical> seasonVerticals(SkierVerticalQuery query) {
        TreeMap<Integer, Long> bySeason = new TreeMap<>();
        String skier = Integer.toString(query.skierId());
        for (int resortId : query.resorts()) {
            Iterable<Integer> seasons = query.seasons().isEmpty() ? seasons(resortId) : query.seasons();
            for (int season : seasons) {
                String total = call(() -> redis.hget(RedisKeys.seasonTotals(RedisKeys.tag(resortId, season)), skier));
                if (total != null) {
                    bySeason.merge(season, Long.parseLong(total), Long::sum);
                }
            }
        }
        List<SeasonVertical> result = new ArrayList<>(bySeason.size());
        bySeason.forEach((season, vertical) -> result.add(new SeasonVertical(season, vertical)));
        return result;
    }

    @Override
    public List<Resort> resorts() {
        seed();
        Map<String, String> all = call(() -> redis.hgetAll(RESORTS));
        List<Resort> resorts = new ArrayList<>(all.size());
        all.forEach((id, name) -> resorts.add(new Resort(Integer.parseInt(id), name)));
        resorts.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return resorts;
    }

    @Override
    public Optional<Resort> resort(int resortId) {
        seed();
        String name = call(() -> redis.hget(RESORTS, Integer.toString(resortId)));
        return name == null ? Optional.empty() : Optional.of(new Resort(resortId, name));
    }

    @Override
    public List<Integer> seasons(int resortId) {
        Set<String> members = call(() -> redis.smembers(SEASONS + resortId));
        return members.stream().map(Integer::valueOf).sorted().toList();
    }

    @Override
    public boolean addSeason(int resortId, int season) {
        if (resort(resortId).isEmpty()) {
            return false;
        }
        call(() -> redis.sadd(SEASONS + resortId, Integer.toString(season)));
        return true;
    }

    @Override
    public int uniqueSkiers(ResortDay where) {
        String tag = RedisKeys.tag(where.resortId(), where.seasonId());
        return (int) (long) call(() -> redis.hlen(RedisKeys.day(tag, where.dayId())));
    }

    /** The sum of every registered resort and season's ride counter: what Redis holds. */
    @Override
    public long ridesStored() {
        long total = 0;
        for (Resort resort : resorts()) {
            for (int season : seasons(resort.id())) {
                String count = call(() -> redis.get(RedisKeys.rides(RedisKeys.tag(resort.id(), season))));
                total += count == null ? 0 : Long.parseLong(count);
            }
        }
        return total;
    }

    @Override
    public String description() {
        return description;
    }

    /** Rides queued for the next batch. */
    @Override
    public int queuedRides() {
        return commits.queued();
    }

    @Override
    public int queueCapacity() {
        return commits.capacity();
    }

    /** PING (in a cluster, to the node of a fixed key): one round trip within the command timeout. */
    @Override
    public void ping() {
        if (cluster) {
            byte[] key = RedisKeys.rides(RedisKeys.tag(1, 1)).getBytes(StandardCharsets.UTF_8);
            call(() -> redis.sendCommand(key, Protocol.Command.PING));
        } else {
            call(redis::ping);
        }
    }

    @Override
    public void observe(StoreObserver observer) {
        this.observer = observer;
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

    /** Loads the function and the seed resorts if Redis answers now; else that happens on first use. */
    private void tryPrepare() {
        try {
            loadFunction();
            seed();
        } catch (StoreUnavailableException e) {
            // Redis is not up yet: requests answer 503 until it is, then the function is loaded on demand
        }
    }

    /** Resorts 1..10 exist in every store; HSETNX keeps a name another server wrote first. */
    private void seed() {
        if (seeded) {
            return;
        }
        List<String> names = InMemoryRideStore.seedResortNames();
        for (int i = 0; i < names.size(); i++) {
            String id = Integer.toString(i + 1);
            String name = names.get(i);
            call(() -> redis.hsetnx(RESORTS, id, name));
        }
        seeded = true;
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
                throw new StoreUnavailableException("cannot load the liftride function on " + node.getKey(), e);
            }
        }
    }

    private long redisTimeMicros() {
        Object reply = cluster
                ? redis.sendCommand(
                        RedisKeys.rides(RedisKeys.tag(1, 1)).getBytes(StandardCharsets.UTF_8), Protocol.Command.TIME)
                : redis.sendCommand(Protocol.Command.TIME);
        List<?> parts = (List<?>) reply;
        long seconds = Long.parseLong(new String((byte[]) parts.get(0), StandardCharsets.US_ASCII));
        long micros = Long.parseLong(new String((byte[]) parts.get(1), StandardCharsets.US_ASCII));
        return seconds * 1_000_000L + micros;
    }

    /** Runs one Redis call, timed for {@link StoreObserver#command}; any Jedis failure becomes the API's 503. */
    private <T> T call(Supplier<T> command) {
        long startNanos = System.nanoTime();
        try {
            return command.get();
        } catch (JedisDataException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("Function not found")) {
                throw new FunctionMissing(e);
            }
            if (message.startsWith("DEADLINE")) {
                throw new StoreUnavailableException("Redis took the batch after its deadline: not applied", e);
            }
            throw new StoreUnavailableException("Redis refused the command: " + message, e);
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        } finally {
            observer.command(System.nanoTime() - startNanos);
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
