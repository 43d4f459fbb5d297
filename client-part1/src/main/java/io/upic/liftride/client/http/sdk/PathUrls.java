package io.upic.liftride.client.http.sdk;

import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;

/**
 * The URLs the generated code built for request paths under one base URL, kept for the run's workers, up to
 * {@value #MAX_URLS} of them (about 20 MiB): a run sends the same skier's path again and again, and building a
 * URL is an eighth of the SDK path's client CPU. Thread-safe.
 */
final class PathUrls {

    static final int MAX_URLS = 1 << 15;

    private final String basePath;
    private final ConcurrentHashMap<String, HttpUrl> urls = new ConcurrentHashMap<>();

    PathUrls(String basePath) {
        this.basePath = basePath;
    }

    /** The URL of {@code path} under {@code base}, if kept; null if not, or for another base URL. */
    HttpUrl get(String base, String path) {
        return basePath.equals(base) ? urls.get(path) : null;
    }

    /** Keeps {@code url} as the URL of {@code path} under {@code base}, unless full or for another base URL. */
    void put(String base, String path, HttpUrl url) {
        if (basePath.equals(base) && urls.size() < MAX_URLS) {
            urls.putIfAbsent(path, url);
        }
    }
}
