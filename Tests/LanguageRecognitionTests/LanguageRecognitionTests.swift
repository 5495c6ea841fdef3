import Testing
@testable import LanguageRecognition
