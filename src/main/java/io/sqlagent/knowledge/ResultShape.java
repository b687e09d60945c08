package io.sqlagent.knowledge;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.sqlagent.SnakeCaseJson;

/**
 * What a validated query's result looked like: its columns (name and PostgreSQL type, in order),
 * its row count and a SHA-256 digest of columns and rows. The rows are digested in sorted order, so
 * a query without {@code ORDER BY} whose rows come back in another order has not drifted.
 *
 * @param columns {@code [{"name", "type"}]}
 * @param rows the rows read
 * @param digest hex SHA-256
 * @param truncated whether the rows stopped at a limit (then the digest covers those read)
 */
public record ResultShape(ArrayNode columns, int rows, String digest, boolean truncated) {

    /** The shape of a {@code run_sql} result ({@code {columns:[{name,type,key}], rows:[{key:value}], truncated}}). */
    public static ResultShape of(JsonNode result) {
        ArrayNode columns = SnakeCaseJson.MAPPER.createArrayNode();
        for (JsonNode column : result.path("columns")) {
            columns.addObject().put("name", column.path("name").asText()).put("type", column.path("type").asText());
        }
        List<String> rows = new ArrayList<>();
        for (JsonNode row : result.path("rows")) {
            rows.add(row.toString());
        }
        rows.sort(null);
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        sha.update(columns.toString().getBytes(StandardCharsets.UTF_8));
        for (String row : rows) {
            sha.update((byte) '\n');
            sha.update(row.getBytes(StandardCharsets.UTF_8));
        }
        return new ResultShape(columns, rows.size(), HexFormat.of().formatHex(sha.digest()),
                result.path("truncated").asBoolean(false));
    }
}
