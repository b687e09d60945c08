package io.sqlagent;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The service's one JSON mapper, named for what sets it apart from a default Jackson mapper: snake_case names (the
 * tool contract's style: {@code table_name}, {@code row_count}), case-insensitive enums, ISO dates and exact decimals.
 * Tool arguments and results, events and stored JSON all go through it.
 */
public final class SnakeCaseJson {

    /** Binds argument objects to records and turns results into JSON trees. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            // Exact decimals stay as written: no 270.00 read back as 2.7E+2, no exponent on output.
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .findAndAddModules()
            .build();

    private SnakeCaseJson() {
    }
}
