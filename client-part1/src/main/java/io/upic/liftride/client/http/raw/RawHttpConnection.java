package io.upic.liftride.client.http.raw;

import io.upic.liftride.client.http.RetryAfter;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One kept-alive HTTP/1.1 connection that sends pre-encoded requests and reads only the status and framing of
 * each answer; not thread-safe: one instance per worker thread. It closes on any error or non-reusable answer
 * and reconnects on the next call, never resending by itself. Each read waits at most the read timeout and the
 * whole exchange ends by the call deadline ({@link SocketTimeoutException}).
 */
final class RawHttpConnection implements AutoCloseable {

    /** Requests are assembled in place here; the largest lift-ride POST is about 250 bytes. */
    static final int REQUEST_BUFFER_BYTES = 1024;
    /** Response headers must fit here (Tomcat's are about 150 bytes). */
    static final int RESPONSE_BUFFER_BYTES = 8192;
    /** The longest body skipped to keep the connection; an error JSON is about 100 bytes. */
    static final long MAX_DRAINED_BODY_BYTES = 64 * 1024;

    private final InetSocketAddress address;
    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final long callTimeoutNanos;
    private final byte[] out = new byte[REQUEST_BUFFER_BYTES];
    private final byte[] in = new byte[RESPONSE_BUFFER_BYTES];
    private int inStart;
    private int inEnd;
    private Socket socket;
    private InputStream input;
    private OutputStream output;
    private int soTimeoutMillis;
    private long deadlineNanos;
    private long retryAfterMillis = RetryAfter.NONE;

    RawHttpConnection(
            InetSocketAddress address, int connectTimeoutMillis, int readTimeoutMillis, int callTimeoutMillis) {
        this.address = address;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
        this.callTimeoutNanos = callTimeoutMillis * 1_000_000L;
    }

    /** The last answer's {@code Retry-After}, in milliseconds, or {@link RetryAfter#NONE}. */
    long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** Where the caller assembles the next request, starting at index 0. */
    byte[] requestBuffer() {
        return out;
    }

    /** Whether a connection is open (for tests). */
    boolean isOpen() {
        return socket != null;
    }

    /**
     * Sends {@code requestBuffer()[0..length)} and returns the answer's status; the body is dropped.
     *
     * @throws SocketTimeoutException past a read timeout or the call deadline
     * @throws IOException            on any other failure; the connection is then closed
     */
    int exchange(int length) throws IOException {
        deadlineNanos = System.nanoTime() + callTimeoutNanos;
        retryAfterMillis = RetryAfter.NONE;
        boolean ok = false;
        try {
            if (socket == null) {
                connect();
            }
            output.write(out, 0, length);
            int status = readResponse();
            ok = true;
            return status;
        } finally {
            if (!ok) {
                close();
            }
        }
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, waitMillis(connectTimeoutMillis));
            soTimeoutMillis = readTimeoutMillis;
            s.setSoTimeout(soTimeoutMillis);
            input = s.getInputStream();
            output = s.getOutputStream();
            socket = s;
            inStart = 0;
            inEnd = 0;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private int readResponse() throws IOException {
        while (true) {
            int headerEnd;
            while ((headerEnd = indexOfHeaderEnd()) < 0) {
                compactAndFill("response headers");
            }
            int status = parseStatus();
            boolean http10 = in[inStart + 7] == '0';
            long contentLength = -1;
            boolean chunked = false;
            boolean close = http10;
            int line = indexOfCrlf(inStart, headerEnd + 2) + 2;
            while (line < headerEnd) {
                int eol = indexOfCrlf(line, headerEnd + 2);
                if (headerNameIs(line, eol, "content-length")) {
                    contentLength = parseContentLength(valueStart(line, eol, 14), eol);
                } else if (headerNameIs(line, eol, "transfer-encoding")) {
                    chunked = containsIgnoreCase(valueStart(line, eol, 17), eol, "chunked");
                } else if (headerNameIs(line, eol, "retry-after")) {
                    int from = valueStart(line, eol, 11);
                    retryAfterMillis = RetryAfter.millis(
                            new String(in, from, eol - from, StandardCharsets.US_ASCII), System.currentTimeMillis());
                } else if (headerNameIs(line, eol, "connection")) {
                    int from = valueStart(line, eol, 10);
                    if (containsIgnoreCase(from, eol, "close")) {
                        close = true;
                    } else if (http10 && containsIgnoreCase(from, eol, "keep-alive")) {
                        close = false;
                    }
                }
                line = eol + 2;
            }
            inStart = headerEnd + 4;
            if (status >= 100 && status < 200) { // interim answer (e.g. 100 Continue): the real one follows
                continue;
            }
            if (chunked) {
                close |= !skipChunkedBody();
            } else if (contentLength > MAX_DRAINED_BODY_BYTES) {
                close = true; // cheaper to reconnect than to read it all
            } else if (contentLength >= 0) {
                skip(contentLength);
            } else if (status != 204 && status != 304) {
                close = true; // the body runs to the end of the stream: nothing after it is reusable
            }
            if (close) {
                close();
            }
            return status;
        }
    }

    /** {@code HTTP/1.x NNN}: the three digits of the status. */
    private int parseStatus() throws ProtocolException {
        int s = inStart;
        if (inEnd - s < 12 || !containsIgnoreCase(s, s + 5, "http/") || in[s + 8] != ' ') {
            throw new ProtocolException("malformed status line");
        }
        int status = 0;
        for (int i = s + 9; i < s + 12; i++) {
            int d = in[i] - '0';
            if (d < 0 || d > 9) {
                throw new ProtocolException("malformed status code");
            }
            status = status * 10 + d;
        }
        return status;
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            if (inStart == inEnd) {
                inStart = 0;
                inEnd = 0;
                fill();
            }
            int take = (int) Math.min(n, inEnd - inStart);
            inStart += take;
            n -= take;
        }
    }

    /** Skips a chunked body; false if it was longer than {@link #MAX_DRAINED_BODY_BYTES} and left unread. */
    private boolean skipChunkedBody() throws IOException {
        long skipped = 0;
        while (true) {
            int eol;
            while ((eol = indexOfCrlf(inStart, inEnd)) < 0) {
                compactAndFill("a chunk line");
            }
            long size = 0;
            boolean any = false;
            for (int i = inStart; i < eol; i++) {
                int d = Character.digit(in[i], 16);
                if (d < 0) { // ';' starts a chunk extension
                    break;
                }
                size = size * 16 + d;
                any = true;
                if (size > Integer.MAX_VALUE) {
                    throw new ProtocolException("chunk larger than 2 GiB");
                }
            }
            if (!any) {
                throw new ProtocolException("malformed chunk size");
            }
            inStart = eol + 2;
            if (size == 0) {
                while (true) { // trailer lines, up to an empty one
                    while ((eol = indexOfCrlf(inStart, inEnd)) < 0) {
                        compactAndFill("a chunk line");
                    }
                    boolean empty = eol == inStart;
                    inStart = eol + 2;
                    if (empty) {
                        return true;
                    }
                }
            }
            skipped += size;
            if (skipped > MAX_DRAINED_BODY_BYTES) {
                return false;
            }
            skip(size + 2); // data and its CRLF
        }
    }

    /** Makes room and reads more; {@code what} must fit in the buffer whole. */
    private void compactAndFill(String what) throws IOException {
        if (inEnd - inStart == in.length) {
            throw new ProtocolException(what + " larger than " + in.length + " bytes");
        }
        if (inStart > 0) {
            System.arraycopy(in, inStart, in, 0, inEnd - inStart);
            inEnd -= inStart;
            inStart = 0;
        }
        fill();
    }

    private void fill() throws IOException {
        int wait = waitMillis(readTimeoutMillis);
        if (wait != soTimeoutMillis) {
            socket.setSoTimeout(wait);
            soTimeoutMillis = wait;
        }
        int n = input.read(in, inEnd, in.length - inEnd);
        if (n < 0) {
            throw new EOFException("server closed the connection");
        }
        inEnd += n;
    }

    /**
     * {@code timeoutMillis}, or less if the call deadline comes first.
     *
     * @throws SocketTimeoutException if the call deadline has passed
     */
    private int waitMillis(int timeoutMillis) throws SocketTimeoutException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("call deadline of " + callTimeoutNanos / 1_000_000 + " ms passed");
        }
        return (int) Math.min(timeoutMillis, (left + 999_999) / 1_000_000);
    }

    private int indexOfHeaderEnd() {
        for (int i = inStart; i + 3 < inEnd; i++) {
            if (in[i] == '\r' && in[i + 1] == '\n' && in[i + 2] == '\r' && in[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private int indexOfCrlf(int from, int to) {
        for (int i = from; i + 1 < to; i++) {
            if (in[i] == '\r' && in[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Whether the header line at {@code [from, to)} is {@code name:} (case-insensitive, lower-case name). */
    private boolean headerNameIs(int from, int to, String name) {
        int n = name.length();
        if (to - from <= n || in[from + n] != ':') {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if ((in[from + i] | 0x20) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private int valueStart(int line, int eol, int nameLength) {
        int i = line + nameLength + 1;
        while (i < eol && (in[i] == ' ' || in[i] == '\t')) {
            i++;
        }
        return i;
    }

    /** Whether {@code [from, to)} contains {@code word} (ASCII letters and '-', lower case), ignoring case. */
    private boolean containsIgnoreCase(int from, int to, String word) {
        int n = word.length();
        outer:
        for (int i = from; i + n <= to; i++) {
            for (int j = 0; j < n; j++) {
                if ((in[i + j] | 0x20) != word.charAt(j)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private long parseContentLength(int from, int to) throws ProtocolException {
        long v = 0;
        int i = from;
        for (; i < to && in[i] >= '0' && in[i] <= '9'; i++) {
            v = v * 10 + (in[i] - '0');
            if (v > Integer.MAX_VALUE) {
                throw new ProtocolException("Content-Length larger than 2 GiB");
            }
        }
        if (i == from) {
            throw new ProtocolException("malformed Content-Length");
        }
        while (i < to && (in[i] == ' ' || in[i] == '\t')) {
            i++;
        }
        if (i != to) {
            throw new ProtocolException("malformed Content-Length");
        }
        return v;
    }

    /** Closes the connection, if open; the next {@link #exchange} reconnects. Never throws. */
    @Override
    public void close() {
        Socket s = socket;
        socket = null;
        input = null;
        output = null;
        inStart = 0;
        inEnd = 0;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }
}
