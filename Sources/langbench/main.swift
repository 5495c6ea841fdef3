import LangBenchCLI

await LangBenchCommand.main()
