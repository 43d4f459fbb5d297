package io.upic.liftride.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.sdk.api.StatisticsApi;
import io.upic.liftride.sdk.model.APIStats;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Debug logging and asynchronous calls work on OkHttp 4, whose clients' interceptor lists are immutable: the
 * templates add their interceptors to a derived client where the stock ones add them to the list.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OkHttp4InterceptorTest {

    private MockWebServer server;
    private ApiClient client;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.start();
        client = new ApiClient().setBasePath(server.url("/liftride").toString());
        server.enqueue(new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"ridesStored\": 7}"));
    }

    @AfterEach
    void stop() throws Exception {
        server.shutdown();
    }

    @Test
    void aDebuggingClientLogsAndStillCalls() throws ApiException {
        client.setDebugging(true);
        assertTrue(client.isDebugging());
        assertEquals(1, client.getHttpClient().interceptors().size());
        assertEquals(7L, new StatisticsApi(client).getPerformanceStats().getRidesStored());
        client.setDebugging(false);
        assertEquals(0, client.getHttpClient().interceptors().size());
    }

    @Test
    void anAsynchronousCallCompletesWithItsData() throws Exception {
        CompletableFuture<APIStats> answer = new CompletableFuture<>();
        new StatisticsApi(client).getPerformanceStatsAsync(new ApiCallback<APIStats>() {
            @Override
            public void onFailure(ApiException e, int statusCode, Map<String, List<String>> headers) {
                answer.completeExceptionally(e);
            }

            @Override
            public void onSuccess(APIStats result, int statusCode, Map<String, List<String>> headers) {
                answer.complete(result);
            }

            @Override
            public void onUploadProgress(long bytesWritten, long contentLength, boolean done) {}

            @Override
            public void onDownloadProgress(long bytesRead, long contentLength, boolean done) {}
        });
        assertEquals(7L, answer.get(20, TimeUnit.SECONDS).getRidesStored());
    }
}
