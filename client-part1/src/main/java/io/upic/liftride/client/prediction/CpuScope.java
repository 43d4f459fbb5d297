package io.upic.liftride.client.prediction;

/**
 * What the CPU time measured in this JVM covers, and so what the model's CPU station stands for: the
 * one place that wording lives, for the console summary and client-part2's report alike.
 */
public enum CpuScope {

    /** The server runs in this JVM: its CPU is in D, the CPU station covers client and server. */
    EMBEDDED_SERVER("client + embedded server", ""),

    /** The server runs elsewhere (-i): D is the client's CPU alone; the server's time is part of the delay. */
    REMOTE_SERVER(
            "client only, server remote", "D is the client's CPU only: the remote server's CPU is in the delay Z");

    private final String label;
    private final String caveat;

    CpuScope(String label, String caveat) {
        this.label = label;
        this.caveat = caveat;
    }

    /** The scope of a run against an embedded ({@code true}) or a remote server. */
    public static CpuScope of(boolean embeddedServer) {
        return embeddedServer ? EMBEDDED_SERVER : REMOTE_SERVER;
    }

    /** Whose CPU it is: "client + embedded server" or "client only, server remote". */
    public String label() {
        return label;
    }

    /** What the reader must know about D; empty when it covers client and server. */
    public String caveat() {
        return caveat;
    }
}
