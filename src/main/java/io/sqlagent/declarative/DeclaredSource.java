package io.sqlagent.declarative;

import java.util.Optional;

/**
 * A source declared in a tool file, with {@code ${ENV}} references already expanded.
 *
 * @param name the source's name
 * @param file the file that declares it
 * @param url {@code postgresql://host:port/database}, or {@code mysql://} or {@code mariadb://}: its engine
 * @param user the user, if given apart from the URL
 * @param password the password, if given apart from the URL; never logged
 * @param maxPoolSize connections its pool opens at most
 */
public record DeclaredSource(String name, String file, String url, Optional<String> user, Optional<String> password,
        int maxPoolSize) {

    @Override
    public String toString() {
        return "DeclaredSource[" + name + " in " + file + "]";
    }
}
