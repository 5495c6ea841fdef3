import Testing
@testable import LlamaBackend
