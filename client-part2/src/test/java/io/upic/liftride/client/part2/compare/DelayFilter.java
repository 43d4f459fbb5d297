package io.upic.liftride.client.part2.compare;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;

/**
 * A test-only servlet filter that holds every POST for a settable time before the servlets see it: a server
 * slowed on purpose, with nothing added to the production server. Thread-safe.
 */
final class DelayFilter implements Filter {

    private final AtomicLong delayMicros = new AtomicLong();

    /** Holds each POST from now on for {@code micros} (0: no delay). */
    void set(long micros) {
        delayMicros.set(micros);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long micros = delayMicros.get();
        if (micros > 0 && "POST".equals(((HttpServletRequest) request).getMethod())) {
            try {
                TimeUnit.MICROSECONDS.sleep(micros);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServletException("interrupted while delayed on purpose", e);
            }
        }
        chain.doFilter(request, response);
    }
}
