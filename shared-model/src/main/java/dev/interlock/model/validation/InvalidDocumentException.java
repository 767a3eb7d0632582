package dev.interlock.model.validation;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.ValidationError;
import java.util.List;
import java.util.stream.Collectors;

/** A rejected document with every error and its path; the API maps it to a 400 problem response. */
public final class InvalidDocumentException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<ValidationError> errors;

    public InvalidDocumentException(List<ValidationError> errors) {
        super(errors.stream().map(ValidationError::toString).collect(Collectors.joining("; ")));
        this.errors = Frozen.list(errors);
    }

    /** Every problem found, in document order. */
    public List<ValidationError> errors() {
        return errors;
    }
}
