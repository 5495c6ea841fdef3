// The built-in short-text language recognizer: model format, training and recognition.
// (Populated by the recognizer work; see issue 3.)
