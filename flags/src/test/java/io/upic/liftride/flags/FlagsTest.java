package io.upic.liftride.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.junit.jupiter.api.Test;

class FlagsTest {
    private static final Flag<Integer> THREADS = Flag.integer("t", "threads", "N", "threads", 1, 1024, null);
    private static final Flag<Integer> PORT = Flag.integer(null, "port", "N", "port to listen on", 0, 65535, 8080);
    private static final Flag<String> NAME = Flag.of(
                    null, "name", "NAME", "a name without blanks", "none", "what to call it", text -> {
                        if (text.contains(" ")) {
                            throw new IllegalArgumentException("has a blank");
                        }
                        return text;
                    })
            .withExplainsRejection(true);
    private static final Flag<Duration> RTT = Flag.of(
            null,
            "rtt",
            "DURATION",
            null,
            null,
            "round trip",
            Flag.Parser.ownMessage("--rtt ", text -> Duration.ofMillis(Long.parseLong(text))));
    private static final Flag<Integer> TAG = Flag.integer(null, "tag", "N", "a tag, repeatable", 1, 9, null);
    private static final Flag<Boolean> QUIET = Flag.toggle("q", "quiet", "say nothing");
    private static final List<Flag<?>> TABLE = List.of(THREADS, PORT, NAME, RTT, TAG, QUIET, Flags.HELP);

    private static CommandLine parse(String... args) throws UsageException {
        return Flags.parseOnlyFlags(args, TABLE);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> {
                    CommandLine line = parse(args);
                    for (Flag<?> flag : TABLE) {
                        flag.valueIn(line);
                    }
                    TAG.valuesIn(line);
                })
                .getMessage();
    }

    @Test
    void readsEachFlagByItsShortOrLongNameOrGivesItsDefault() throws UsageException {
        CommandLine line = parse("-t", "8", "--port=0", "-q");
        assertEquals(8, THREADS.valueIn(line));
        assertEquals(0, PORT.valueIn(line));
        assertEquals(true, QUIET.valueIn(line));
        assertEquals("none", NAME.valueIn(line));
        assertNull(RTT.valueIn(parse()));
        assertEquals(8080, PORT.valueIn(parse()));
        assertFalse(QUIET.valueIn(parse()));
        assertEquals(12, THREADS.valueIn(parse("--threads", " 12 ")), "integers may carry blanks");
    }

    @Test
    void aRepeatableFlagGivesEveryValueInOrder() throws UsageException {
        assertEquals(List.of(3, 1, 3), TAG.valuesIn(parse("--tag", "3", "--tag", "1", "--tag", "3")));
        assertEquals(List.of(), TAG.valuesIn(parse()));
        assertEquals("--tag must be an integer in 1..9, got 0", error("--tag", "3", "--tag", "0"));
    }

    @Test
    void aBadValueIsOneLineNamingTheFlagTheRuleAndTheValue() {
        assertEquals("-t/--threads must be an integer in 1..1024, got 0", error("-t", "0"));
        assertEquals("-t/--threads must be an integer in 1..1024, got many", error("-t", "many"));
        assertEquals("--port must be an integer in 0..65535, got 65536", error("--port", "65536"));
        assertEquals("--name must be a name without blanks (has a blank), got a b", error("--name", "a b"));
        assertEquals("--rtt For input string: \"40ms\"", error("--rtt", "40ms"), "the parser's own message");
    }

    @Test
    void aMissingValueUnknownFlagOrStrayArgumentIsOneLine() {
        assertEquals("--port needs a value (an integer in 0..65535)", error("--port"));
        assertEquals("--rtt needs a value", error("--rtt"), "no rule: nothing to add");
        assertEquals("unknown flag --bare", error("--bare"));
        assertEquals(
                "unknown flag --po", error("--po", "80"), "no abbreviations: a later flag could make them ambiguous");
        assertEquals("unknown flag -x", error("-x"));
        assertEquals("unexpected argument extra", error("--port", "1", "extra"));
    }

    @Test
    void helpIsReadEvenBesideStrayArguments() throws UsageException {
        assertTrue(Flags.HELP.valueIn(parse("extra", "-h")));
        assertTrue(Flags.HELP.valueIn(parse("--help")));
        assertEquals(
                List.of("extra"), Flags.parse(new String[] {"extra"}, TABLE).getArgList());
    }

    @Test
    void aRequiredFlagSaysSoWithItsRule() {
        assertEquals(
                "-t/--threads is required (an integer in 1..1024)",
                THREADS.missing().getMessage());
    }

    @Test
    void integerFlagsCheckRecordsBuiltWithoutACommandLine() {
        PORT.check("port", 65535);
        assertEquals(
                "port not in 0..65535: 70000",
                assertThrows(IllegalArgumentException.class, () -> PORT.check("port", 70000))
                        .getMessage());
        assertThrows(IllegalStateException.class, () -> NAME.check("name", 1), "no integer range");
    }

    @Test
    void theUsageListsTheFlagsInTableOrderBetweenHeaderAndFooter() {
        String usage = Flags.usage("cmd [options]", "Does things.", TABLE, "Exit codes: 0 fine, 2 bad flags.");
        assertTrue(usage.startsWith("usage: cmd [options]\nDoes things.\n"), usage);
        assertTrue(usage.endsWith("Exit codes: 0 fine, 2 bad flags.\n"), usage);
        assertTrue(usage.contains("port to listen on, 0..65535, default 8080"), usage);
        assertTrue(usage.contains("threads, 1..1024 (required)"), usage);
        int previous = -1;
        for (String name : new String[] {"--threads <N>", "--port <N>", "--name <NAME>", "--quiet", "--help"}) {
            int at = usage.indexOf(name);
            assertTrue(at > previous, name + " after the flag before it in\n" + usage);
            previous = at;
        }
    }
}
