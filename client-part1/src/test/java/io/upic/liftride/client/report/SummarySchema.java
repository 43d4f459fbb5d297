package io.upic.liftride.client.report;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The committed {@code summary.schema.json} (from the classpath, as the jar ships it) and a validator for
 * JSON text against it; client-part2's tests use it too (test-jar). Thread-safe.
 */
public final class SummarySchema {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Schema SCHEMA = load();

    private SummarySchema() {}

    private static Schema load() {
        try (InputStream in = SummarySchema.class.getResourceAsStream(SummaryJson.SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SummaryJson.SCHEMA_RESOURCE + " not on the classpath");
            }
            JsonNode schema = JSON.readTree(in);
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema's complaints about {@code json}, one line each; empty when it is valid. */
    public static List<String> errors(String json) {
        List<Error> errors =
                SCHEMA.validate(JSON.readTree(json), ctx -> ctx.executionConfig(c -> c.formatAssertionsEnabled(true)));
        return errors.stream().map(Error::toString).toList();
    }

    /** The parsed document, for assertions on its keys. */
    public static JsonNode tree(String json) {
        return JSON.readTree(json);
    }
}
