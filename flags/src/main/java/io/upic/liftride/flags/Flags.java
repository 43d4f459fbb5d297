package io.upic.liftride.flags;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * A command's table of {@link Flag}s turned into its parsing ({@link #parse}) and usage ({@link #usage}); a
 * {@code main} prints a {@link UsageException}'s one line and exits {@link UsageException#EXIT_CODE}. Static and
 * thread-safe.
 */
public final class Flags {

    /** {@code -h/--help}: every command has it. */
    public static final Flag<Boolean> HELP = Flag.toggle("h", "help", "print this help and exit");

    private Flags() {}

    /**
     * Parses {@code args} against {@code flags}, without abbreviations (a later flag could make them ambiguous).
     *
     * @throws UsageException for an unknown flag or a flag without its value, as one line
     */
    public static CommandLine parse(String[] args, List<Flag<?>> flags) throws UsageException {
        try {
            return DefaultParser.builder()
                    .setAllowPartialMatching(false)
                    .build()
                    .parse(options(flags), args);
        } catch (UnrecognizedOptionException e) {
            throw new UsageException("unknown flag " + e.getOption());
        } catch (MissingArgumentException e) {
            String name = e.getOption().getLongOpt();
            throw flags.stream()
                    .filter(f -> f.longName().equals(name))
                    .findFirst()
                    .orElseThrow()
                    .missingValue();
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * {@link #parse}, refusing any argument that is no flag: for commands that take only flags.
     *
     * @throws UsageException naming the first such argument
     */
    public static CommandLine parseOnlyFlags(String[] args, List<Flag<?>> flags) throws UsageException {
        CommandLine line = parse(args, flags);
        if (!line.getArgList().isEmpty() && !line.hasOption(HELP.longName())) {
            throw new UsageException("unexpected argument " + line.getArgList().get(0));
        }
        return line;
    }

    /**
     * The usage of a command: {@code usage: SYNTAX}, the {@code header} (or null), its {@code flags} in table
     * order, then the {@code footer} (or null); 100 columns, ending with a line break.
     */
    public static String usage(String syntax, String header, List<Flag<?>> flags, String footer) {
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(out);
        HelpFormatter f = new HelpFormatter();
        f.setOptionComparator(null); // the table's order: the required or most used flags first
        f.printHelp(w, 100, syntax, header, options(flags), 2, 2, footer, false);
        w.flush();
        return out.toString();
    }

    /**
     * A titled part of a command's usage ({@code Plan}, {@code Output}); immutable.
     *
     * @param title the heading, without its colon
     * @param flags the group's flags in usage order
     */
    public record Group(String title, List<Flag<?>> flags) {
        public Group {
            flags = List.copyOf(flags);
        }
    }

    /**
     * The usage of a command with many flags: {@code usage: SYNTAX}, the {@code header} (or null), each group under
     * its title, then the {@code footer} (or null); 100 columns, ending with a line break.
     */
    public static String groupedUsage(String syntax, String header, List<Group> groups, String footer) {
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(out);
        HelpFormatter f = new HelpFormatter();
        f.setOptionComparator(null);
        f.printWrapped(w, 100, "usage: " + syntax);
        if (header != null) {
            f.printWrapped(w, 100, header);
        }
        for (Group g : groups) {
            w.println();
            w.println(g.title() + ":");
            f.printOptions(w, 100, options(g.flags()), 2, 2);
        }
        if (footer != null) {
            w.println();
            f.printWrapped(w, 100, footer);
        }
        w.flush();
        return out.toString();
    }

    private static Options options(List<Flag<?>> flags) {
        Options o = new Options();
        flags.forEach(f -> o.addOption(f.option()));
        return o;
    }
}
