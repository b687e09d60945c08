package io.sqlagent.store;

import java.util.List;

/**
 * A store migration script was changed after the store applied it: the schema the store has is not
 * the one the script now describes, so nothing is applied until the script is restored (or the
 * change is shipped as a new script).
 */
public class StoreScriptEditedException extends IllegalStateException {

    public StoreScriptEditedException(List<String> scripts) {
        super("the store migration script(s) " + String.join(", ", scripts)
                + " changed after the store applied them (the SHA-256 recorded in store_schema_version differs);"
                + " restore the shipped text and put the change in a new script");
    }
}
