package io.sqlagent.eval;

/** A case file or case list that cannot be used; the message names the case and the field. */
public class CaseFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CaseFileException(String message) {
        super(message);
    }
}
