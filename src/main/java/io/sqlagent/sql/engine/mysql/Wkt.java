package io.sqlagent.sql.engine.mysql;

import java.util.List;
import java.util.function.Function;

import io.vertx.mysqlclient.data.spatial.Geometry;
import io.vertx.mysqlclient.data.spatial.GeometryCollection;
import io.vertx.mysqlclient.data.spatial.LineString;
import io.vertx.mysqlclient.data.spatial.MultiLineString;
import io.vertx.mysqlclient.data.spatial.MultiPoint;
import io.vertx.mysqlclient.data.spatial.MultiPolygon;
import io.vertx.mysqlclient.data.spatial.Point;
import io.vertx.mysqlclient.data.spatial.Polygon;

/**
 * A spatial value as well-known text, spelled as MariaDB's {@code ST_AsText} spells it ({@code POINT(1 2)},
 * {@code LINESTRING(0 0,1 1)}, {@code MULTIPOINT(1 1,2 2)}): the driver decodes the server's binary form into objects,
 * and their hex would tell a reader nothing.
 */
final class Wkt {

    private Wkt() {
    }

    static String of(Geometry geometry) {
        if (geometry instanceof Point point) {
            return "POINT(" + coordinates(point) + ")";
        }
        if (geometry instanceof LineString line) {
            return "LINESTRING" + points(line.getPoints());
        }
        if (geometry instanceof Polygon polygon) {
            return "POLYGON" + rings(polygon);
        }
        if (geometry instanceof MultiPoint points) {
            return "MULTIPOINT" + points(points.getPoints());
        }
        if (geometry instanceof MultiLineString lines) {
            return "MULTILINESTRING" + list(lines.getLineStrings(), line -> points(line.getPoints()));
        }
        if (geometry instanceof MultiPolygon polygons) {
            return "MULTIPOLYGON" + list(polygons.getPolygons(), Wkt::rings);
        }
        if (geometry instanceof GeometryCollection collection) {
            return "GEOMETRYCOLLECTION" + list(collection.getGeometries(), Wkt::of);
        }
        return geometry.toString();
    }

    private static String rings(Polygon polygon) {
        return list(polygon.getLineStrings(), line -> points(line.getPoints()));
    }

    private static String points(List<Point> points) {
        return list(points, Wkt::coordinates);
    }

    private static <T> String list(List<T> items, Function<T, String> text) {
        StringBuilder out = new StringBuilder("(");
        for (int i = 0; i < items.size(); i++) {
            out.append(i > 0 ? "," : "").append(text.apply(items.get(i)));
        }
        return out.append(')').toString();
    }

    private static String coordinates(Point point) {
        return MySqlColumn.shortest(Double.toString(point.getX())) + " " + MySqlColumn.shortest(Double.toString(point.getY()));
    }
}
