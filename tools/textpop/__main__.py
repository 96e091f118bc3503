from tools.textpop.generate import main

main()
