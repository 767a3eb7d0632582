package dev.interlock.model.validation;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.ValidationError;
import java.util.List;

/** A parsed document and every problem found in it; {@code value} is null unless the document is valid. */
public record Validated<T>(T value, List<ValidationError> errors) {
    public Validated {
        errors = Frozen.list(errors);
        if (!errors.isEmpty()) {
            value = null;
        }
    }

    /** Whether the document has no problems. */
    public boolean isValid() {
        return errors.isEmpty();
    }

    /** The value, or an {@link InvalidDocumentException} listing every error. */
    public T orThrow() {
        if (!isValid()) {
            throw new InvalidDocumentException(errors);
        }
        return value;
    }
}
