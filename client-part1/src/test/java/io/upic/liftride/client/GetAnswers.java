package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.cluster.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a server answers to the read side of the API for one resort, season 2022, day 1: a sample of
 * skiers' day verticals and season totals, the day's unique skiers and the resort's seasons; each as
 * {@code "STATUS BODY"} by path. Two servers sharing a store must give equal maps. A 503 (the store is
 * unavailable, Retry-After) is an instruction to retry, not an answer: it is retried, and counted in
 * {@code retried503}. Immutable.
 */
record GetAnswers(Map<String, String> byPath, int retried503) {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    /** How long a path may answer 503 before the store counts as down for good. */
    private static final Duration RETRY_LIMIT = Duration.ofSeconds(5);

    /** The paths asked for {@code resort}: {@code samples} skiers spread over 1..{@code skiers}. */
    static List<String> paths(int resort, int skiers, int samples) {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            int skier = 1 + (int) ((long) i * (skiers - 1) / Math.max(1, samples - 1));
            paths.add("/skiers/" + resort + "/seasons/2022/days/1/skiers/" + skier);
            paths.add("/skiers/" + skier + "/vertical?resort=" + resort);
        }
        paths.add("/resorts/" + resort + "/seasons/2022/day/1/skiers");
        paths.add("/resorts/" + resort + "/seasons");
        return paths;
    }

    /** Asks {@code baseUrl} (e.g. http://127.0.0.1:PORT/liftride) every path. */
    static GetAnswers of(String baseUrl, List<String> paths) throws IOException, InterruptedException {
        Map<String, String> answers = new LinkedHashMap<>();
        int retried = 0;
        for (String path : paths) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(Duration.ofSeconds(20))
                    .build();
            AtomicReference<HttpResponse<String>> response = new AtomicReference<>();
            AtomicInteger sent = new AtomicInteger();
            Poll.until("GET " + path + " answering other than 503", RETRY_LIMIT, () -> {
                sent.incrementAndGet();
                response.set(HTTP.send(request, HttpResponse.BodyHandlers.ofString()));
                return response.get().statusCode() != 503;
            });
            retried += sent.get() - 1;
            answers.put(path, response.get().statusCode() + " " + response.get().body());
        }
        return new GetAnswers(Map.copyOf(answers), retried);
    }

    /** How many answers were 200. */
    long ok() {
        return byPath.values().stream().filter(a -> a.startsWith("200 ")).count();
    }

    /** Equal answers to every path, naming the first that differs. */
    void assertSameAs(GetAnswers other, String what) {
        for (Map.Entry<String, String> e : byPath.entrySet()) {
            assertEquals(e.getValue(), other.byPath.get(e.getKey()), what + ": GET " + e.getKey());
        }
        assertEquals(byPath.keySet(), other.byPath.keySet(), what);
    }
}
