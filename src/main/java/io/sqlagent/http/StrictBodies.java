package io.sqlagent.http;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.validation.Validator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;

import io.sqlagent.SnakeCaseJson;

/**
 * How a request body is bound to its record, for the resources that name it with
 * {@code @CustomDeserialization(StrictBodies.class)}: the service's JSON mapping ({@link SnakeCaseJson}, snake_case) made
 * strict, as {@link JsonBodies} reads a body too. A duplicate key, content after the value, an unknown field and a
 * value of the wrong type are refused ({@link BindingErrors} answers them); Jackson's usual leniency would otherwise
 * read {@code "5"} as 5, {@code 1.5} as 1 and {@code 42} as the string {@code "42"}.
 */
public final class StrictBodies implements BiFunction<ObjectMapper, Type, ObjectReader> {

    private static final ObjectMapper STRICT = strict();

    @Override
    public ObjectReader apply(ObjectMapper ignored, Type type) {
        return reader(type);
    }

    private static ObjectReader reader(Type type) {
        return STRICT.readerFor(STRICT.constructType(type)).with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * {@code body} bound to {@code type} and validated as a resource's {@code @Valid} record parameter is, for a resource
     * that decides something before it reads its body (whether the caller may ask at all: its 403 comes before a 400).
     * An empty body is an empty object; a problem is a {@link JsonBodies.BadBody} with the answer {@link BindingErrors}
     * gives a bound parameter, in the same words and order.
     */
    public static <T> T bind(byte[] body, Class<T> type, Validator validator) throws JsonBodies.BadBody {
        T bound;
        try {
            bound = reader(type).readValue(body == null || body.length == 0 ? EMPTY_OBJECT : body);
        } catch (JsonMappingException e) {
            throw new JsonBodies.BadBody(BindingErrors.ofBinding(e));
        } catch (JsonProcessingException e) {
            throw new JsonBodies.BadBody(JsonBodies.malformed(e));
        } catch (IOException e) {
            throw new JsonBodies.BadBody(ErrorBody.of("malformed_json", "The body could not be read as JSON"));
        }
        if (bound == null) {
            throw new JsonBodies.BadBody(BindingErrors.notAnObject(type, "null"));
        }
        Optional<ErrorBody> violated = BindingErrors.first(validator.validate(bound));
        if (violated.isPresent()) {
            throw new JsonBodies.BadBody(violated.get());
        }
        return bound;
    }

    private static final byte[] EMPTY_OBJECT = { '{', '}' };

    private static ObjectMapper strict() {
        ObjectMapper mapper = SnakeCaseJson.MAPPER.copy()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.registerModule(new SimpleModule("strict-int").addDeserializer(Integer.class, new StrictInteger())
                .addDeserializer(int.class, new StrictInteger()));
        for (LogicalType type : LogicalType.values()) {
            for (CoercionInputShape shape : CoercionInputShape.values()) {
                mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
            }
        }
        return mapper;
    }

    /**
     * A whole number that fits an int, nothing else: Jackson's own reader fails on a larger one as if the text were
     * broken, and the caller would read {@code malformed_json} rather than the field's own error.
     */
    private static final class StrictInteger extends StdScalarDeserializer<Integer> {
        private static final long serialVersionUID = 1L;

        StrictInteger() {
            super(Integer.class);
        }

        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.hasToken(JsonToken.VALUE_NUMBER_INT) && parser.getNumberType() == JsonParser.NumberType.INT) {
                return parser.getIntValue();
            }
            return (Integer) context.handleUnexpectedToken(Integer.class, parser);
        }
    }
}
