// playfair: a C++ program that cracks Playfair ciphertexts with the easy API.
//
//   playfair WORDS < CIPHERTEXTS
//
// WORDS is a word list, one word a line (words with anything but the
// letters A-Z, such as "don't", are left out, as sbfs does); each line of the input is one
// ciphertext.  Prints "CIPHERTEXT<TAB>KEYWORD<TAB>PLAINTEXT" per line, or
// "CIPHERTEXT<TAB>-<TAB>-" when no keyword of the list explains it.
#include <sbfs/sbfs.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: playfair WORDS < CIPHERTEXTS\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << argv[1] << ": cannot be read\n";
        return 1;
    }
    std::vector<std::string> words;
    for (std::string w; std::getline(in, w);)
        if (!w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) { return std::isalpha(c) && c < 128; }))
            words.push_back(w);
    std::vector<const char *> list;
    for (const std::string &w : words)
        list.push_back(w.c_str());

    for (std::string cipher; std::getline(std::cin, cipher);) {
        char *keyword = nullptr, *plain = nullptr;
        sb_error err;
        int rc = sb_easy_playfair_crack(cipher.c_str(), list.data(), list.size(), &keyword, &plain, nullptr, &err);
        if (rc == SB_ENOTFOUND) {
            std::cout << cipher << "\t-\t-\n";
            continue;
        }
        if (rc) {
            std::cerr << "word " << err.line << ": " << err.msg << "\n";
            return 1;
        }
        std::cout << cipher << '\t' << keyword << '\t' << plain << '\n';
        std::free(keyword);
        std::free(plain);
    }
    return 0;
}
