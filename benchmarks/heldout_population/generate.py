#!/usr/bin/env python3
"""Held-out population generator: fictional developer profiles, skewed like a real scrape.

Usage:
    python benchmarks/heldout_population/generate.py OUT --count N --seed S

Writes N profiles under OUT/0000/, OUT/0001/, ... (at most 1,000 files per folder),
mixing four input formats (talent pages ~40%, text resumes ~35%, JSON Resume ~15%,
GitHub user data ~10%), and a truth file OUT.parent/truth-{S}-{N}.jsonl with one
line per person.  Standard library plus `faker`.  Streams: one person at a time.

Written from the fictional examples in sample_data/ only, without reading the
toolkit's code (see README.md next to this file).
"""
from __future__ import annotations

import argparse
import bisect
import itertools
import json
import math
import random
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

from faker import Faker

FILES_PER_DIR = 1000
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
FIRST_MONTH = 2008 * 12          # Jan 2008
LAST_MONTH = 2026 * 12 + 11      # Dec 2026
NOW_MONTH = 2026 * 12 + 10       # "now" for current positions: Nov 2026

FORMAT_WEIGHTS = [("talent", 40), ("resume", 35), ("json_resume", 15), ("github", 10)]

# ---------------------------------------------------------------------------
# Weighted choice helper (cumulative weights, bisect)
# ---------------------------------------------------------------------------


class Weighted:
    def __init__(self, items, weights):
        self.items = list(items)
        weights = list(weights)
        if len(weights) != len(self.items):
            raise ValueError(f"{len(self.items)} items but {len(weights)} weights")
        self.cum = list(itertools.accumulate(weights))
        self.total = self.cum[-1]

    def pick(self, rng):
        return self.items[bisect.bisect_right(self.cum, rng.random() * self.total)]


def zipf_weights(n, s=1.0, offset=1.0):
    return [1.0 / ((i + offset) ** s) for i in range(n)]


def ascii_fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("ł", "l").replace("Ł", "L").replace("ø", "o").replace("Ø", "O").replace("ß", "ss")
    s = s.replace("ı", "i").replace("æ", "ae").replace("đ", "d").replace("Đ", "D")
    return "".join(c for c in s if c.isascii())


def slugify(s, sep="-"):
    s = ascii_fold(s).lower()
    out, prev = [], False
    for c in s:
        if c.isalnum():
            out.append(c)
            prev = False
        elif not prev:
            out.append(sep)
            prev = True
    return "".join(out).strip(sep)


# ---------------------------------------------------------------------------
# Geography: countries, cities, name locales, phone formats, languages
# ---------------------------------------------------------------------------
# (country, ISO code, weight, calling code, [cities], [name locales], [spoken languages])
# US and India cities carry a state: "City|State".
COUNTRIES = [
    ("United States", "US", 30.0, "1",
     ["Seattle|Washington", "San Francisco|California", "Austin|Texas", "New York|New York",
      "Boston|Massachusetts", "Chicago|Illinois", "Denver|Colorado", "Atlanta|Georgia",
      "Raleigh|North Carolina", "Pittsburgh|Pennsylvania", "San Jose|California",
      "Portland|Oregon", "Madison|Wisconsin", "Ann Arbor|Michigan", "Salt Lake City|Utah",
      "Mountain View|California", "Redmond|Washington", "Boulder|Colorado", "Durham|North Carolina",
      "Minneapolis|Minnesota", "Columbus|Ohio", "Tempe|Arizona", "Huntsville|Alabama"],
     ["en_US"] * 6 + ["es_MX", "en_IN", "zh_CN", "ko_KR", "vi_VN"], ["English", "Spanish"]),
    ("India", "IN", 18.0, "91",
     ["Bengaluru|Karnataka", "Hyderabad|Telangana", "Pune|Maharashtra", "Mumbai|Maharashtra",
      "Chennai|Tamil Nadu", "Gurugram|Haryana", "Noida|Uttar Pradesh", "Kochi|Kerala",
      "Kolkata|West Bengal", "Ahmedabad|Gujarat", "Jaipur|Rajasthan", "Thiruvananthapuram|Kerala",
      "Indore|Madhya Pradesh", "Coimbatore|Tamil Nadu", "Bhubaneswar|Odisha", "Mysuru|Karnataka"],
     ["en_IN"], ["English", "Hindi", "Tamil", "Telugu", "Kannada", "Marathi", "Bengali", "Malayalam"]),
    ("Germany", "DE", 7.0, "49",
     ["Berlin", "Munich", "Hamburg", "Frankfurt", "Cologne", "Stuttgart", "Karlsruhe", "Leipzig",
      "Dresden", "Darmstadt", "Aachen", "Nuremberg"],
     ["de_DE"] * 4 + ["tr_TR", "pl_PL"], ["German", "English"]),
    ("United Kingdom", "GB", 6.0, "44",
     ["London", "Manchester", "Cambridge", "Edinburgh", "Bristol", "Leeds", "Oxford", "Glasgow",
      "Belfast", "Cardiff"],
     ["en_GB"] * 5 + ["en_IN", "pl_PL"], ["English"]),
    ("Brazil", "BR", 5.0, "55",
     ["São Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba", "Porto Alegre", "Recife",
      "Florianópolis", "Campinas", "Fortaleza"],
     ["pt_BR"], ["Portuguese", "English", "Spanish"]),
    ("Canada", "CA", 4.0, "1",
     ["Toronto", "Vancouver", "Montreal", "Waterloo", "Ottawa", "Calgary"],
     ["en_CA", "en_CA", "fr_CA", "en_IN", "zh_CN"], ["English", "French"]),
    ("France", "FR", 3.0, "33", ["Paris", "Lyon", "Toulouse", "Grenoble", "Nantes", "Lille", "Bordeaux"],
     ["fr_FR"], ["French", "English"]),
    ("Netherlands", "NL", 2.2, "31", ["Amsterdam", "Utrecht", "Eindhoven", "Delft", "Rotterdam"],
     ["nl_NL"], ["Dutch", "English"]),
    ("Poland", "PL", 2.2, "48", ["Kraków", "Warsaw", "Wrocław", "Gdańsk", "Poznań"],
     ["pl_PL"], ["Polish", "English"]),
    ("Spain", "ES", 2.0, "34", ["Madrid", "Barcelona", "Valencia", "Seville", "Bilbao"],
     ["es_ES"], ["Spanish", "Catalan", "English"]),
    ("China", "CN", 2.0, "86", ["Beijing", "Shanghai", "Shenzhen", "Hangzhou", "Chengdu"],
     ["zh_CN"], ["Mandarin", "English"]),
    ("Japan", "JP", 1.5, "81", ["Tokyo", "Osaka", "Kyoto", "Fukuoka", "Sapporo"],
     ["ja_JP"], ["Japanese", "English"]),
    ("Nigeria", "NG", 1.5, "234", ["Lagos", "Abuja", "Ibadan", "Port Harcourt", "Enugu"],
     ["yo_NG", "en_NG"], ["English", "Yoruba", "Igbo", "Hausa"]),
    ("Australia", "AU", 1.2, "61", ["Sydney", "Melbourne", "Brisbane", "Perth", "Adelaide"],
     ["en_AU"], ["English"]),
    ("Ukraine", "UA", 1.2, "380", ["Kyiv", "Lviv", "Kharkiv", "Odesa", "Dnipro"],
     ["x_UA"], ["Ukrainian", "English", "Polish"]),
    ("Mexico", "MX", 1.0, "52", ["Mexico City", "Guadalajara", "Monterrey", "Puebla"],
     ["es_MX"], ["Spanish", "English"]),
    ("Italy", "IT", 1.0, "39", ["Milan", "Rome", "Turin", "Bologna", "Pisa"],
     ["it_IT"], ["Italian", "English"]),
    ("Argentina", "AR", 0.8, "54", ["Buenos Aires", "Córdoba", "Rosario", "Mendoza"],
     ["es_AR"], ["Spanish", "English"]),
    ("Sweden", "SE", 0.8, "46", ["Stockholm", "Gothenburg", "Malmö", "Uppsala", "Lund"],
     ["sv_SE"], ["Swedish", "English"]),
    ("Turkey", "TR", 0.8, "90", ["Istanbul", "Ankara", "Izmir"],
     ["tr_TR"], ["Turkish", "English", "German"]),
    ("Portugal", "PT", 0.8, "351", ["Lisbon", "Porto", "Braga", "Coimbra"],
     ["pt_PT"], ["Portuguese", "English"]),
    ("South Korea", "KR", 0.6, "82", ["Seoul", "Busan", "Daejeon", "Pangyo"],
     ["x_KR"], ["Korean", "English"]),
    ("Vietnam", "VN", 0.6, "84", ["Ho Chi Minh City", "Hanoi", "Da Nang"],
     ["vi_VN"], ["Vietnamese", "English"]),
    ("Indonesia", "ID", 0.6, "62", ["Jakarta", "Bandung", "Yogyakarta", "Surabaya"],
     ["id_ID"], ["Indonesian", "English"]),
    ("Switzerland", "CH", 0.6, "41", ["Zurich", "Geneva", "Lausanne", "Basel"],
     ["de_CH", "fr_CH", "it_IT"], ["German", "French", "English", "Italian"]),
    ("Pakistan", "PK", 0.5, "92", ["Karachi", "Lahore", "Islamabad"],
     ["en_PK"], ["Urdu", "English", "Punjabi"]),
    ("Kenya", "KE", 0.5, "254", ["Nairobi", "Mombasa", "Kisumu"],
     ["x_KE"], ["English", "Swahili"]),
    ("Ireland", "IE", 0.5, "353", ["Dublin", "Cork", "Galway"],
     ["en_IE"], ["English", "Irish"]),
    ("Czechia", "CZ", 0.5, "420", ["Prague", "Brno", "Ostrava"],
     ["cs_CZ"], ["Czech", "English"]),
    ("Romania", "RO", 0.5, "40", ["Bucharest", "Cluj-Napoca", "Iași", "Timișoara"],
     ["ro_RO"], ["Romanian", "English"]),
    ("Egypt", "EG", 0.4, "20", ["Cairo", "Alexandria", "Giza"],
     ["x_EG"], ["Arabic", "English"]),
    ("Israel", "IL", 0.4, "972", ["Tel Aviv", "Haifa", "Jerusalem"],
     ["x_IL"], ["Hebrew", "English", "Russian"]),
    ("Colombia", "CO", 0.4, "57", ["Bogotá", "Medellín", "Cali"],
     ["es_CO"], ["Spanish", "English"]),
    ("Philippines", "PH", 0.4, "63", ["Manila", "Cebu City", "Quezon City"],
     ["en_PH", "fil_PH"], ["Filipino", "English"]),
    ("Singapore", "SG", 0.4, "65", ["Singapore"],
     ["zh_CN", "en_IN", "id_ID"], ["English", "Mandarin", "Malay"]),
    ("Ghana", "GH", 0.35, "233", ["Accra", "Kumasi", "Tamale"],
     ["tw_GH"], ["English", "Twi"]),
    ("Finland", "FI", 0.35, "358", ["Helsinki", "Espoo", "Tampere", "Oulu"],
     ["fi_FI"], ["Finnish", "Swedish", "English"]),
    ("Denmark", "DK", 0.35, "45", ["Copenhagen", "Aarhus", "Odense"],
     ["da_DK"], ["Danish", "English"]),
    ("Norway", "NO", 0.3, "47", ["Oslo", "Trondheim", "Bergen"],
     ["no_NO"], ["Norwegian", "English"]),
    ("Hungary", "HU", 0.3, "36", ["Budapest", "Szeged", "Debrecen"],
     ["hu_HU"], ["Hungarian", "English", "German"]),
    ("Greece", "GR", 0.3, "30", ["Athens", "Thessaloniki", "Patras"],
     ["x_GR"], ["Greek", "English"]),
    ("South Africa", "ZA", 0.3, "27", ["Cape Town", "Johannesburg", "Durban", "Pretoria"],
     ["en_ZA", "zu_ZA"], ["English", "Afrikaans", "Zulu", "Xhosa"]),
    ("New Zealand", "NZ", 0.3, "64", ["Auckland", "Wellington", "Christchurch"],
     ["en_NZ"], ["English", "Māori"]),
    ("Chile", "CL", 0.3, "56", ["Santiago", "Valparaíso", "Concepción"],
     ["es_CL"], ["Spanish", "English"]),
    ("Bangladesh", "BD", 0.3, "880", ["Dhaka", "Chittagong", "Sylhet"],
     ["x_BD"], ["Bengali", "English"]),
    ("Estonia", "EE", 0.2, "372", ["Tallinn", "Tartu"], ["et_EE"], ["Estonian", "English", "Russian"]),
    ("Austria", "AT", 0.3, "43", ["Vienna", "Graz", "Linz"], ["de_AT"], ["German", "English"]),
    ("Belgium", "BE", 0.3, "32", ["Brussels", "Ghent", "Leuven", "Antwerp"],
     ["nl_BE", "fr_FR"], ["Dutch", "French", "English"]),
    # rare tail
    ("Iceland", "IS", 0.04, "354", ["Reykjavík"], ["x_IS"], ["Icelandic", "English"]),
    ("Samoa", "WS", 0.02, "685", ["Apia"], ["x_WS"], ["Samoan", "English"]),
    ("Mongolia", "MN", 0.03, "976", ["Ulaanbaatar"], ["x_MN"], ["Mongolian", "English"]),
    ("Nepal", "NP", 0.06, "977", ["Kathmandu", "Pokhara"], ["x_NP"], ["Nepali", "English"]),
    ("Uruguay", "UY", 0.06, "598", ["Montevideo"], ["es_ES"], ["Spanish", "English"]),
    ("Rwanda", "RW", 0.04, "250", ["Kigali"], ["x_RW"], ["Kinyarwanda", "English", "French"]),
    ("Armenia", "AM", 0.05, "374", ["Yerevan", "Gyumri"], ["x_AM"], ["Armenian", "Russian", "English"]),
    ("Georgia", "GE", 0.04, "995", ["Tbilisi", "Batumi"], ["x_GE"], ["Georgian", "English"]),
    ("Luxembourg", "LU", 0.04, "352", ["Luxembourg"], ["fr_FR", "de_DE"], ["Luxembourgish", "French", "German"]),
    ("Malta", "MT", 0.03, "356", ["Valletta", "Sliema"], ["en_GB", "it_IT"], ["Maltese", "English"]),
    ("Bhutan", "BT", 0.01, "975", ["Thimphu"], ["x_BT"], ["Dzongkha", "English"]),
    ("Fiji", "FJ", 0.015, "679", ["Suva"], ["x_WS", "en_IN"], ["English", "Fijian"]),
    ("Bolivia", "BO", 0.03, "591", ["La Paz", "Santa Cruz de la Sierra", "Cochabamba"], ["es_ES"], ["Spanish"]),
    ("Senegal", "SN", 0.04, "221", ["Dakar"], ["x_SN"], ["French", "Wolof", "English"]),
    ("Tunisia", "TN", 0.05, "216", ["Tunis", "Sfax"], ["x_EG"], ["Arabic", "French", "English"]),
    ("Kazakhstan", "KZ", 0.05, "7", ["Almaty", "Astana"], ["x_KZ"], ["Kazakh", "Russian", "English"]),
    ("Sri Lanka", "LK", 0.08, "94", ["Colombo", "Kandy"], ["x_LK"], ["Sinhala", "Tamil", "English"]),
    ("Ethiopia", "ET", 0.05, "251", ["Addis Ababa"], ["x_ET"], ["Amharic", "English"]),
    ("Lithuania", "LT", 0.08, "370", ["Vilnius", "Kaunas"], ["x_LT"], ["Lithuanian", "English"]),
    ("Slovenia", "SI", 0.06, "386", ["Ljubljana", "Maribor"], ["x_SI"], ["Slovenian", "English"]),
    ("Peru", "PE", 0.08, "51", ["Lima", "Arequipa"], ["es_ES"], ["Spanish", "Quechua"]),
    ("Morocco", "MA", 0.07, "212", ["Casablanca", "Rabat"], ["x_EG", "fr_FR"], ["Arabic", "French", "English"]),
    ("Uganda", "UG", 0.04, "256", ["Kampala"], ["x_KE"], ["English", "Luganda"]),
    ("Cyprus", "CY", 0.03, "357", ["Nicosia", "Limassol"], ["x_GR"], ["Greek", "English"]),
    ("Paraguay", "PY", 0.02, "595", ["Asunción"], ["es_ES"], ["Spanish", "Guarani"]),
    ("Faroe Islands", "FO", 0.005, "298", ["Tórshavn"], ["x_IS"], ["Faroese", "Danish"]),
]

# Romanised name lists for locales Faker lacks or writes in another script ("x_" locales).
CUSTOM_NAMES = {
    "x_UA": (["Oleksandr", "Dmytro", "Andriy", "Olena", "Iryna", "Taras", "Yulia", "Bohdan", "Kateryna",
              "Mykola", "Oksana", "Serhiy", "Nataliya", "Volodymyr", "Halyna", "Yaroslav"],
             ["Shevchenko", "Kovalenko", "Bondarenko", "Tkachenko", "Kravchenko", "Melnyk", "Oliynyk",
              "Lysenko", "Moroz", "Petrenko", "Savchenko", "Rudenko", "Marchenko", "Hnatyuk", "Boyko"]),
    "x_KR": (["Minjun", "Seoyeon", "Jiho", "Hayoon", "Dohyun", "Jiwoo", "Seojun", "Yuna", "Hyunwoo",
              "Eunji", "Sungmin", "Jisoo"],
             ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han", "Shin"]),
    "x_KE": (["Wanjiru", "Otieno", "Achieng", "Kamau", "Njeri", "Kiprono", "Akinyi", "Mwangi", "Chebet",
              "Odhiambo", "Wekesa", "Nyambura"],
             ["Kariuki", "Ochieng", "Wambui", "Kipchoge", "Mutua", "Njoroge", "Owino", "Cheruiyot",
              "Kimani", "Onyango", "Mwende", "Barasa"]),
    "x_EG": (["Ahmed", "Mariam", "Omar", "Nour", "Youssef", "Salma", "Karim", "Hana", "Mostafa", "Laila",
              "Tarek", "Yasmin"],
             ["Hassan", "El-Sayed", "Mahmoud", "Farouk", "Abdelrahman", "Mansour", "Saleh", "Gaber",
              "Fahmy", "Nasser", "Ibrahim", "Zaki"]),
    "x_IL": (["Noa", "Itai", "Yael", "Omer", "Tamar", "Eitan", "Shira", "Amit", "Maya", "Yonatan"],
             ["Cohen", "Levi", "Mizrahi", "Peretz", "Biton", "Friedman", "Azoulay", "Katz", "Shapiro", "Ben-David"]),
    "x_GR": (["Giorgos", "Eleni", "Nikos", "Katerina", "Dimitris", "Maria", "Yannis", "Sofia", "Kostas", "Ioanna"],
             ["Papadopoulos", "Georgiou", "Nikolaidis", "Karagiannis", "Vlachos", "Antoniou", "Oikonomou",
              "Makris", "Alexiou", "Dimitriou"]),
    "x_BD": (["Rahim", "Fatema", "Tanvir", "Nusrat", "Arif", "Sadia", "Imran", "Farhana", "Sakib", "Tahmina"],
             ["Hossain", "Rahman", "Chowdhury", "Islam", "Akter", "Uddin", "Sarker", "Haque", "Talukder", "Mia"]),
    "x_IS": (["Guðrún", "Sigurður", "Kristín", "Jón", "Helga", "Ólafur", "Sigríður", "Einar"],
             ["Jónsdóttir", "Sigurðsson", "Guðmundsdóttir", "Magnússon", "Einarsdóttir", "Ólafsson",
              "Kristjánsson", "Björnsdóttir"]),
    "x_WS": (["Malia", "Sione", "Losa", "Tavita", "Mele", "Ioane", "Salote", "Pita"],
             ["Fonoti", "Tuilagi", "Leota", "Faleolo", "Sapolu", "Tuimavave", "Aumua", "Soliai"]),
    "x_MN": (["Bat-Erdene", "Oyunchimeg", "Temuulen", "Enkhjargal", "Munkhbat", "Saruul"],
             ["Ganbaatar", "Batbayar", "Tserendorj", "Otgonbayar", "Enkhbold", "Dorjsuren"]),
    "x_NP": (["Sujan", "Anjali", "Bikash", "Sabina", "Prakash", "Rojina", "Nabin", "Pooja"],
             ["Shrestha", "Gurung", "Tamang", "Adhikari", "Karki", "Thapa", "Maharjan", "Bhattarai"]),
    "x_RW": (["Aline", "Eric", "Grace", "Jean-Paul", "Divine", "Olivier", "Clarisse", "Patrick"],
             ["Uwimana", "Niyonzima", "Mukamana", "Habimana", "Ingabire", "Nshimiyimana", "Uwase", "Mugisha"]),
    "x_AM": (["Armen", "Ani", "Tigran", "Lilit", "Gor", "Nare", "Hayk", "Mariam"],
             ["Petrosyan", "Sargsyan", "Hovhannisyan", "Grigoryan", "Avetisyan", "Harutyunyan", "Karapetyan"]),
    "x_GE": (["Giorgi", "Nino", "Levan", "Tamar", "Davit", "Mariam", "Luka", "Ana"],
             ["Beridze", "Kapanadze", "Gelashvili", "Maisuradze", "Lomidze", "Tsiklauri", "Kvaratskhelia"]),
    "x_BT": (["Tshering", "Karma", "Pema", "Sonam", "Kinley", "Dorji"],
             ["Wangchuk", "Dorji", "Lhamo", "Tenzin", "Yangzom", "Namgyel"]),
    "x_SN": (["Aminata", "Moussa", "Fatou", "Cheikh", "Awa", "Mamadou", "Ndeye", "Ousmane"],
             ["Diop", "Ndiaye", "Fall", "Sow", "Gueye", "Faye", "Sarr", "Ba"]),
    "x_KZ": (["Aigerim", "Nurlan", "Dana", "Yerlan", "Madina", "Askar", "Aruzhan", "Daniyar"],
             ["Nurpeisov", "Zhaksybekova", "Abenov", "Suleimenova", "Tokayev", "Bekova", "Iskakov"]),
    "x_LK": (["Nuwan", "Dilani", "Chamara", "Tharushi", "Kasun", "Ishara", "Ruwan", "Sanduni"],
             ["Perera", "Fernando", "de Silva", "Jayasinghe", "Wickramasinghe", "Bandara", "Rajapaksha"]),
    "x_ET": (["Abebe", "Meron", "Dawit", "Hiwot", "Yonas", "Selam", "Tewodros", "Bethlehem"],
             ["Bekele", "Tesfaye", "Alemu", "Haile", "Girma", "Mekonnen", "Tadesse", "Wolde"]),
    "x_LT": (["Lukas", "Gabija", "Mantas", "Ieva", "Tomas", "Austėja", "Jonas", "Rūta"],
             ["Kazlauskas", "Jankauskaitė", "Petrauskas", "Stankevičius", "Vasiliauskas", "Žukauskaitė"]),
    "x_SI": (["Luka", "Nina", "Jan", "Eva", "Matej", "Maja", "Žiga", "Tina"],
             ["Novak", "Horvat", "Kovačič", "Krajnc", "Zupančič", "Potočnik", "Mlakar", "Vidmar"]),
}
GLOBAL_LOCALES = ["en_US", "en_GB", "en_IN", "de_DE", "pt_BR", "es_ES", "fr_FR", "pl_PL", "it_IT",
                  "nl_NL", "tr_TR", "zh_CN", "ja_JP", "yo_NG", "x_UA", "x_KR", "x_EG", "vi_VN", "x_GR"]


def phone_for(rng, iso, cc):
    d = lambda n: "".join(str(rng.randrange(10)) for _ in range(n))
    r = rng.random()
    if iso in ("US", "CA"):
        area = str(rng.randrange(201, 990))
        tail = "01" + d(2)  # 555-01xx is reserved for fiction
        return [f"+1 ({area}) 555-{tail}", f"{area}-555-{tail}", f"({area}) 555-{tail}",
                f"+1 {area} 555 {tail}", f"+1.{area}.555.{tail}"][int(r * 5)]
    if iso == "GB":
        tail = d(3)
        return [f"+44 7700 900{tail}", f"07700 900{tail}", f"+44 (0)7700 900{tail}"][int(r * 3)]
    if iso == "IN":
        a = rng.choice("6789") + d(4)
        b = d(5)
        return [f"+91 {a} {b}", f"+91-{a}{b}", f"0{a} {b}", f"+91 {a}-{b}"][int(r * 4)]
    if iso == "DE":
        return [f"+49 {rng.choice(['151', '160', '170', '176'])} {d(8)}", f"0{rng.choice(['30', '89', '40', '69'])} {d(7)}",
                f"+49 (0) {rng.choice(['30', '89', '40'])} {d(4)} {d(3)}"][int(r * 3)]
    if iso == "BR":
        ddd = rng.choice(["11", "21", "31", "41", "51", "81", "48", "19"])
        return [f"+55 ({ddd}) 9{d(4)}-{d(4)}", f"({ddd}) 9{d(4)}-{d(4)}", f"+55 {ddd} 9{d(4)} {d(4)}"][int(r * 3)]
    if iso == "FR":
        return [f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}", f"06 {d(2)} {d(2)} {d(2)} {d(2)}", f"+33 (0)7 {d(2)} {d(2)} {d(2)} {d(2)}"][int(r * 3)]
    if iso == "JP":
        return [f"+81 90-{d(4)}-{d(4)}", f"090-{d(4)}-{d(4)}"][int(r * 2)]
    if iso == "CN":
        return [f"+86 13{d(1)} {d(4)} {d(4)}", f"+86-13{d(9)}"][int(r * 2)]
    if iso == "NL":
        return [f"+31 6 {d(8)}", f"06-{d(8)}"][int(r * 2)]
    if iso == "AU":
        return [f"+61 4{d(2)} {d(3)} {d(3)}", f"04{d(2)} {d(3)} {d(3)}"][int(r * 2)]
    if iso == "PL":
        return f"+48 {d(3)} {d(3)} {d(3)}"
    if iso == "NG":
        return [f"+234 80{d(1)} {d(3)} {d(4)}", f"080{d(1)} {d(3)} {d(4)}"][int(r * 2)]
    groups = [d(2), d(3), d(4)] if r < 0.5 else [d(3), d(3), d(3)]
    return f"+{cc} " + " ".join(groups)


# ---------------------------------------------------------------------------
# Employers, titles, education, skills, repositories
# ---------------------------------------------------------------------------
HEAD_EMPLOYERS = [  # (canonical name, variants as scraped, GitHub org slug)
    ("Nimbus Cloud", ["Nimbus Cloud", "Nimbus Cloud Inc.", "Nimbus"], "nimbus-cloud"),
    ("Vertexa", ["Vertexa", "Vertexa LLC", "Vertexa Inc"], "vertexa"),
    ("Orbitron Systems", ["Orbitron Systems", "Orbitron", "Orbitron Systems Corp."], "orbitron"),
    ("Zentrix Consulting Services", ["Zentrix Consulting Services", "Zentrix", "ZCS (Zentrix Consulting Services)"], "zentrix"),
    ("Quantacore", ["Quantacore", "QuantaCore"], "quantacore"),
    ("Helix Software", ["Helix Software", "Helix Software GmbH", "Helix"], "helix-sw"),
    ("Bluepeak Technologies", ["Bluepeak Technologies", "Bluepeak", "BluePeak Tech"], "bluepeak"),
    ("Lumina Devices", ["Lumina Devices", "Lumina"], "lumina-devices"),
    ("Arcadia Networks", ["Arcadia Networks", "Arcadia Networks Ltd"], "arcadia-net"),
    ("Pangea Commerce", ["Pangea Commerce", "Pangea"], "pangea-commerce"),
    ("Kitewing Social", ["Kitewing Social", "Kitewing"], "kitewing"),
    ("Northstar Semiconductors", ["Northstar Semiconductors", "Northstar Semi"], "northstar-semi"),
]
MID_WORD_A = ["Amber", "Basalt", "Birch", "Bright", "Cedar", "Cinder", "Cobalt", "Copper", "Coral", "Crimson",
              "Delta", "Ember", "Falcon", "Fern", "Flint", "Garnet", "Glacier", "Granite", "Harbor", "Hazel",
              "Heron", "Indigo", "Iron", "Ivory", "Jade", "Juniper", "Kelp", "Lark", "Linden", "Maple",
              "Meadow", "Mosaic", "Nova", "Oak", "Onyx", "Opal", "Orchid", "Otter", "Pebble",
              "Pine", "Prism", "Quartz", "Raven", "Redwood", "Ridge", "River", "Saffron", "Sage",
              "Sable", "Silver", "Slate", "Sparrow", "Spruce", "Summit", "Tidal", "Topaz", "Tundra", "Umber",
              "Velvet", "Verdant", "Willow", "Wren", "Zephyr", "Aster", "Beacon", "Cairn", "Drift", "Estuary",
              "Fjord", "Gale", "Halcyon", "Isle", "Lodestar", "Mistral", "Osprey"]
MID_WORD_B = ["Labs", "Systems", "Health", "Analytics", "Robotics", "Data", "Software", "AI", "Technologies",
              "Bank", "Logistics", "Games", "Security", "Networks", "Cloud", "Fintech", "Digital", "Energy",
              "Mobility", "Media", "Insurance", "Biosciences", "Compute", "Payments", "Retail", "Studios",
              "Telecom", "Devices", "Solutions", "Works"]
TAIL_SUFFIX = ["Consulting", "Software", "& Partners", "Labs", "Digital", "Tech", "Solutions", "Studio",
               "Engineering", "Data Services", "IT Services", "Innovations", "Code Works", "Systems"]
TAIL_LEGAL = {"DE": " GmbH", "AT": " GmbH", "CH": " AG", "BR": " Tecnologia Ltda", "FR": " SAS",
              "NL": " B.V.", "GB": " Ltd", "IN": " Pvt. Ltd.", "PL": " sp. z o.o.", "ES": " S.L.",
              "IT": " S.r.l.", "SE": " AB", "JP": " K.K.", "US": " LLC"}
TAIL_WORD = ["Tinfoil", "Paper Crane", "Lantern", "Moth", "Driftwood", "Bramble", "Cormorant", "Thimble",
             "Pocket", "Saltmarsh", "Hollow Oak", "Blue Kettle", "Hedgehog", "Small Batch", "Brass Owl",
             "Foxglove", "Quiet Harbour", "Red Kite", "Nettle", "Weatherglass", "Firefly", "Cloudberry",
             "Loom", "Anvil", "Compass Rose", "Tern", "Lichen", "Kiln", "Sundial", "Tallow"]

# roles: (weight, [surface forms], takes seniority)
ROLES = [
    (30, ["Software Engineer", "Software Engineer", "Software Engineer", "SWE", "Software Developer",
          "Software Development Engineer", "Developer", "Software Eng.", "Programmer"], True),
    (8, ["Backend Engineer", "Back-end Developer", "Backend Developer", "Back End Engineer", "Server Engineer"], True),
    (6, ["Frontend Engineer", "Front-end Developer", "Frontend Developer", "UI Engineer", "Front End Dev"], True),
    (6, ["Full Stack Developer", "Full-Stack Engineer", "Fullstack Developer", "Full Stack Engineer"], True),
    (6, ["Data Scientist", "Data Scientist", "Applied Scientist", "Data Science Engineer"], True),
    (6, ["Data Engineer", "Data Engineer", "Big Data Engineer", "Analytics Engineer"], True),
    (6, ["Machine Learning Engineer", "ML Engineer", "ML Eng", "MLE", "AI Engineer", "Machine-Learning Engineer"], True),
    (4, ["Site Reliability Engineer", "SRE", "Reliability Engineer"], True),
    (4, ["DevOps Engineer", "DevOps Engineer", "DevOps Specialist", "Build & Release Engineer"], True),
    (3, ["Research Scientist", "Research Scientist", "Research Engineer", "Scientist"], True),
    (2, ["Software Architect", "Solutions Architect", "Architect", "Cloud Architect", "Enterprise Architect"], True),
    (3, ["Engineering Manager", "Engineering Manager", "Eng Manager", "Manager, Software Engineering",
         "Software Development Manager", "Director of Engineering", "VP Engineering"], False),
    (3, ["iOS Engineer", "Android Developer", "Mobile Engineer", "Mobile Developer", "iOS Developer"], True),
    (2, ["QA Engineer", "SDET", "Test Automation Engineer", "Quality Engineer"], True),
    (1.5, ["Security Engineer", "Application Security Engineer", "Security Researcher"], True),
    (1.5, ["Embedded Software Engineer", "Firmware Engineer", "Embedded Developer"], True),
    (0.8, ["Compiler Engineer", "Performance Engineer", "GPU Kernel Engineer"], True),
    (0.7, ["Game Developer", "Gameplay Programmer", "Graphics Engineer"], True),
    (2, ["Platform Engineer", "Infrastructure Engineer", "Cloud Engineer", "Systems Engineer"], True),
    (2, ["Data Analyst", "BI Developer", "Business Intelligence Engineer"], True),
    (2, ["Tech Lead", "Technical Lead", "Team Lead", "Lead Developer"], False),
    (0.6, ["CTO", "Co-founder & CTO", "Founder", "Co-Founder"], False),
    (0.5, ["Developer Advocate", "Developer Relations Engineer", "Technical Writer"], True),
    (0.5, ["Database Administrator", "DBA", "Database Engineer"], True),
]
SENIORITY = Weighted(
    ["", "Senior ", "Sr. ", "Sr ", "Staff ", "Principal ", "Lead ", "Junior ", "Jr. ", "Associate ",
     "Distinguished ", "Senior Staff ", "@I", "@II", "@III", "@ 2", "@ L4", "@ L5", "@ IV", "@ (Senior)"],
    [40, 12, 5, 1.5, 5, 3, 4, 3, 1.5, 2, 0.2, 0.8, 1, 3, 2, 0.6, 0.5, 0.5, 0.4, 0.3])
SPECIALISATION = Weighted(
    [", Platform", ", Infrastructure", " - Payments", " (Search)", ", Core ML", " – Growth",
     ", Developer Experience", " | Kubernetes", ", Backend", " (Data Platform)", ", Ads Ranking",
     " - Identity", ", Observability", ", Compilers", " (Mobile)", ", Security", " — Maps",
     ", Recommendations", ", Storage", " (Contract)", " (Remote)", ", Checkout", ", Trust & Safety"],
    zipf_weights(23, 0.8))

DEGREES = Weighted([
    ("Bachelor of Science (B.Sc.)", "BSc"), ("Bachelor of Technology (B.Tech.)", "B.Tech"),
    ("Bachelor of Engineering (B.E.)", "BE"), ("Master of Science (M.Sc.)", "MSc"),
    ("Master of Engineering (M.Eng.)", "MEng"), ("Doctor of Philosophy (Ph.D.)", "PhD"),
    ("Master of Computer Applications (MCA)", "MCA"), ("Bachelor of Arts (B.A.)", "BA"),
    ("Master of Technology (M.Tech.)", "M.Tech"), ("Associate of Science (A.S.)", "AS"),
    ("Master of Business Administration (MBA)", "MBA"), ("Bachelor of Computer Applications (BCA)", "BCA"),
    ("Diploma in Engineering (Dipl.-Ing.)", "Diplom"), ("Master of Philosophy (M.Phil.)", "MPhil"),
], [30, 14, 8, 20, 6, 7, 3, 2, 3, 1, 1.5, 2, 0.7, 0.6])
FIELDS = Weighted([
    "Computer Science", "Software Engineering", "Electrical Engineering", "Computer Engineering",
    "Information Technology", "Mathematics", "Physics", "Statistics", "Data Science",
    "Electronics and Communication Engineering", "Mechanical Engineering", "Economics",
    "Bioinformatics", "Computational Linguistics", "Information Systems", "Applied Mathematics",
    "Cognitive Science", "Philosophy", "Music Technology", "Astrophysics",
], [40, 10, 8, 8, 8, 5, 3, 3, 3, 5, 2, 1.5, 0.8, 0.5, 3, 2, 0.4, 0.3, 0.2, 0.3])

BIG_UNIS = {
    "US": ["Georgia Institute of Technology", "University of Illinois Urbana-Champaign", "Carnegie Mellon University",
           "University of Texas at Austin", "Arizona State University", "University of Washington",
           "Purdue University", "University of California, Berkeley", "Stanford University",
           "Massachusetts Institute of Technology", "University of Michigan", "Penn State University",
           "Rutgers University", "Ohio State University", "University of Southern California"],
    "IN": ["Anna University", "Visvesvaraya Technological University", "Indian Institute of Technology Bombay",
           "Indian Institute of Technology Delhi", "Vellore Institute of Technology", "Jawaharlal Nehru Technological University",
           "University of Mumbai", "Savitribai Phule Pune University", "BITS Pilani", "Amity University",
           "Indian Institute of Science", "Manipal Institute of Technology", "SRM Institute of Science and Technology"],
    "DE": ["Technical University of Munich", "Karlsruhe Institute of Technology", "RWTH Aachen University",
           "TU Berlin", "TU Darmstadt", "University of Stuttgart", "Humboldt University of Berlin", "TU Dresden"],
    "GB": ["University of Cambridge", "Imperial College London", "University of Edinburgh", "University College London",
           "University of Manchester", "University of Bristol", "University of Oxford", "University of Leeds"],
    "BR": ["Universidade de São Paulo", "Universidade Estadual de Campinas", "Universidade Federal do Rio Grande do Sul",
           "Universidade Federal de Minas Gerais", "Universidade Federal de Pernambuco"],
    "CA": ["University of Waterloo", "University of Toronto", "University of British Columbia", "McGill University"],
    "FR": ["École Polytechnique", "Sorbonne Université", "EPITA", "INSA Lyon", "Université Grenoble Alpes"],
    "NL": ["Delft University of Technology", "University of Amsterdam", "Eindhoven University of Technology"],
    "PL": ["AGH University of Krakow", "Warsaw University of Technology", "University of Warsaw", "Wrocław University of Science and Technology"],
    "ES": ["Universitat Politècnica de Catalunya", "Universidad Politécnica de Madrid", "Universitat Politècnica de València"],
    "CN": ["Tsinghua University", "Peking University", "Zhejiang University", "Shanghai Jiao Tong University"],
    "JP": ["University of Tokyo", "Kyoto University", "Tokyo Institute of Technology", "Kyoto Institute of Technology"],
    "NG": ["University of Lagos", "Obafemi Awolowo University", "Covenant University", "University of Nigeria, Nsukka"],
    "AU": ["University of Melbourne", "UNSW Sydney", "Monash University"],
    "UA": ["Igor Sikorsky Kyiv Polytechnic Institute", "Lviv Polytechnic National University", "Taras Shevchenko National University of Kyiv"],
    "PT": ["Universidade Nova de Lisboa", "Instituto Superior Técnico", "Universidade do Porto"],
}
GLOBAL_UNIS = ["Massachusetts Institute of Technology", "Stanford University", "ETH Zurich", "University of Cambridge",
               "Open University", "Coursera (online)", "University of Waterloo", "National University of Singapore",
               "EPFL", "Georgia Institute of Technology"]
SMALL_COLLEGE_PATTERNS = ["{city} College of Engineering", "{city} Institute of Technology", "St. {saint}'s College",
                          "{surname} College", "Community College of {city}", "{city} School of Computing",
                          "{surname} Institute of Information Technology", "Government Engineering College, {city}",
                          "{city} Polytechnic", "University of Applied Sciences {city}", "{surname} University"]
SAINTS = ["Joseph", "Xavier", "Aloysius", "Brigid", "Anne", "Columba", "Thomas", "Clare", "Ignatius", "Hilda"]

SKILLS = Weighted(
    ["python", "javascript", "sql", "docker", "java", "typescript", "react", "git", "linux", "aws",
     "kubernetes", "node-js", "postgresql", "html", "css", "rest-api", "go", "c-language", "cpp", "pandas",
     "numpy", "machine-learning", "spring", "django", "redis", "mongodb", "bash", "deep-learning", "pytorch",
     "tensorflow", "terraform", "ci-cd", "kafka", "spark", "flask", "graphql", "algorithms", "data-structures",
     "rust", "kotlin", "scala", "swift", "php", "ruby", "elasticsearch", "android", "vue", "angular",
     "microservices", "distributed-systems", "gcp", "azure", "computer-vision", "nlp", "linear-algebra",
     "cuda", "llvm", "compiler", "build-system", "code-optimization", "mlir", "webassembly", "embedded",
     "unity", "haskell", "elixir", "erlang", "ocaml", "clojure", "julia", "fpga", "verilog", "r-language",
     "matlab", "fortran", "cobol", "lisp", "f-sharp", "zig", "nim", "prolog", "coq", "agda", "lean",
     "isabelle", "apl", "j-language", "forth", "ada", "smalltalk", "tla-plus", "idris", "racket", "vhdl",
     "pony", "crystal", "chapel", "futhark"],
    zipf_weights(98, 1.05))
LANGS = Weighted(
    ["python", "javascript", "java", "typescript", "go", "c", "cpp", "csharp", "rust", "kotlin", "php",
     "ruby", "scala", "swift", "r", "julia", "haskell", "dart", "elixir", "lua", "perl", "ocaml",
     "clojure", "erlang", "fortran", "zig", "nim", "apl", "coq", "cobol"],
    zipf_weights(30, 1.1))
LANG_DISPLAY = {"cpp": "C++", "csharp": "C#", "c": "C", "javascript": "JavaScript", "typescript": "TypeScript",
                "php": "PHP", "ocaml": "OCaml", "apl": "APL", "cobol": "COBOL", "r": "R", "graphql": "GraphQL",
                "sql": "SQL", "aws": "AWS", "gcp": "GCP", "nlp": "NLP", "css": "CSS", "html": "HTML",
                "node-js": "Node.js", "ci-cd": "CI/CD", "rest-api": "REST APIs", "c-language": "C", "postgresql": "PostgreSQL",
                "mongodb": "MongoDB", "pytorch": "PyTorch", "tensorflow": "TensorFlow", "llvm": "LLVM", "mlir": "MLIR",
                "cuda": "CUDA", "fpga": "FPGA", "vhdl": "VHDL", "tla-plus": "TLA+", "f-sharp": "F#", "j-language": "J",
                "r-language": "R", "matlab": "MATLAB", "webassembly": "WebAssembly", "ios": "iOS", "numpy": "NumPy"}

POPULAR_REPOS = [  # real open-source projects, real one-line descriptions (paraphrased where long)
    ("kubernetes/kubernetes", "Production-Grade Container Scheduling and Management", "Go"),
    ("pytorch/pytorch", "Tensors and Dynamic neural networks in Python with strong GPU acceleration", "Python"),
    ("tensorflow/tensorflow", "An Open Source Machine Learning Framework for Everyone", "C++"),
    ("facebook/react", "The library for web and native user interfaces.", "JavaScript"),
    ("microsoft/vscode", "Visual Studio Code", "TypeScript"),
    ("rust-lang/rust", "Empowering everyone to build reliable and efficient software.", "Rust"),
    ("python/cpython", "The Python programming language", "Python"),
    ("golang/go", "The Go programming language", "Go"),
    ("nodejs/node", "Node.js JavaScript runtime", "JavaScript"),
    ("torvalds/linux", "Linux kernel source tree", "C"),
    ("huggingface/transformers", "State-of-the-art Machine Learning for Pytorch, TensorFlow, and JAX.", "Python"),
    ("apache/spark", "Apache Spark - A unified analytics engine for large-scale data processing", "Scala"),
    ("apache/kafka", "Mirror of Apache Kafka", "Java"),
    ("scikit-learn/scikit-learn", "scikit-learn: machine learning in Python", "Python"),
    ("numpy/numpy", "The fundamental package for scientific computing with Python.", "Python"),
    ("pandas-dev/pandas", "Flexible and powerful data analysis / manipulation library for Python", "Python"),
    ("django/django", "The Web framework for perfectionists with deadlines.", "Python"),
    ("pallets/flask", "The Python micro framework for building web applications.", "Python"),
    ("vuejs/vue", "Vue.js is a progressive, incrementally-adoptable JavaScript framework for building UI on the web.", "TypeScript"),
    ("angular/angular", "Deliver web apps with confidence", "TypeScript"),
    ("llvm/llvm-project", "The LLVM Project is a collection of modular and reusable compiler and toolchain technologies.", "C++"),
    ("moby/moby", "The Moby Project - a collaborative project for the container ecosystem to assemble container-based systems", "Go"),
    ("hashicorp/terraform", "Terraform enables you to safely and predictably create, change, and improve infrastructure.", "Go"),
    ("prometheus/prometheus", "The Prometheus monitoring system and time series database.", "Go"),
    ("grafana/grafana", "The open and composable observability and data visualization platform.", "TypeScript"),
    ("elastic/elasticsearch", "Free and Open Source, Distributed, RESTful Search Engine", "Java"),
    ("redis/redis", "Redis is an in-memory database that persists on disk.", "C"),
    ("postgres/postgres", "Mirror of the official PostgreSQL GIT repository.", "C"),
    ("spring-projects/spring-boot", "Spring Boot", "Java"),
    ("rails/rails", "Ruby on Rails", "Ruby"),
    ("laravel/laravel", "Laravel is a web application framework with expressive, elegant syntax.", "PHP"),
    ("flutter/flutter", "Flutter makes it easy and fast to build beautiful apps for mobile and beyond", "Dart"),
    ("JetBrains/kotlin", "The Kotlin Programming Language.", "Kotlin"),
    ("apple/swift", "The Swift Programming Language", "C++"),
    ("ansible/ansible", "Ansible is a radically simple IT automation platform.", "Python"),
    ("home-assistant/core", "Open source home automation that puts local control and privacy first.", "Python"),
    ("denoland/deno", "A modern runtime for JavaScript and TypeScript.", "Rust"),
    ("vercel/next.js", "The React Framework", "JavaScript"),
    ("sveltejs/svelte", "Cybernetically enhanced web apps", "JavaScript"),
    ("jax-ml/jax", "Composable transformations of Python+NumPy programs: differentiate, vectorize, JIT to GPU/TPU, and more", "Python"),
    ("apache/airflow", "Apache Airflow - A platform to programmatically author, schedule, and monitor workflows", "Python"),
    ("ray-project/ray", "Ray is an AI compute engine.", "Python"),
    ("istio/istio", "Connect, secure, control, and observe services.", "Go"),
    ("envoyproxy/envoy", "Cloud-native high-performance edge/middle/service proxy", "C++"),
    ("etcd-io/etcd", "Distributed reliable key-value store for the most critical data of a distributed system", "Go"),
    ("neovim/neovim", "Vim-fork focused on extensibility and usability", "Vim Script"),
    ("godotengine/godot", "Godot Engine – Multi-platform 2D and 3D game engine", "C++"),
    ("bitcoin/bitcoin", "Bitcoin Core integration/staging tree", "C++"),
    ("ziglang/zig", "General-purpose programming language and toolchain for maintaining robust, optimal, and reusable software.", "Zig"),
    ("coq/coq", "Coq is a formal proof management system.", "OCaml"),
    ("leanprover/lean4", "Lean 4 programming language and theorem prover", "Lean"),
    ("ocaml/ocaml", "The core OCaml system: compilers, runtime system, base libraries", "OCaml"),
    ("dyalog/ride", "Remote IDE for Dyalog APL", "JavaScript"),
    ("gnu-cobol/gnucobol", "A free COBOL compiler", "C"),
]
ORG_REPO_WORDS = ["harbor", "conduit", "tallyho", "drover", "pylon", "marrow", "sieve", "lattice",
                  "cartographer", "ferry", "beacon", "sluice", "tern", "loom", "thistle", "keel", "sprocket",
                  "gantry", "abacus", "weir", "spindle", "capstan", "bobbin", "trellis", "mortar", "quiver"]
ORG_REPO_DESCR = ["Batch job queue with per-tenant quotas.", "Incremental snapshots for columnar tables.",
                  "Kernel autotuner for edge NPUs.", "Consent-aware event collection for health apps.",
                  "Footstep planner for warehouse robots.", "Tiny templating engine for static sites.",
                  "Feature flag service with gradual rollouts.", "Schema registry and migration checker.",
                  "Load testing harness for gRPC services.", "Distributed tracing collector.",
                  "Mobile SDK for offline-first sync.", "Payments reconciliation engine.",
                  "Geospatial tile server.", "Vector search over product catalogues.",
                  "CI runner autoscaler.", "Design system and component library.", "Log shipping agent.",
                  "Fraud scoring pipeline.", "Realtime multiplayer netcode.", "Firmware update orchestrator."]
PERSONAL_REPOS = [
    ("dotfiles", "Config files for zsh, tmux and neovim"), ("blog", "Personal website and blog"),
    ("homelab", "Ansible playbooks for my home lab"), ("advent-of-code", "Solutions to Advent of Code"),
    ("notes", "Notes on papers I read"), ("scripts", "Assorted shell scripts"), ("raytracer", "A toy ray tracer"),
    ("chip8", "A CHIP-8 emulator"), ("tiny-lisp", "A tiny Lisp interpreter"), ("budget", "Household budget tracker"),
    ("weather-bot", "Chat bot that posts the weather"), ("garden-sensor", "ESP32 soil moisture sensor"),
    ("minigrep", "A grep clone for learning"), ("sudoku-solver", "Backtracking sudoku solver"),
    ("pixel-art", "Pixel art editor in the browser"), ("toy-db", "A toy key-value store"),
    ("kanji-flashcards", "Kanji flashcards with spaced repetition"), ("bike-routes", "Cycling route planner"),
    ("leetcode", "Interview prep"), ("nes-emu", "NES emulator, work in progress"),
    ("mandelbrot", "Mandelbrot renderer with SIMD"), ("chess-engine", "UCI chess engine"),
    ("markov-poetry", "Markov chain poetry generator"), ("bread-timer", "Sourdough schedule calculator"),
    ("synth", "Modular synth in Rust"), ("telescope-control", "Telescope mount controller"),
    ("bird-counter", "Counts birds at the feeder with a camera"), ("tram-times", "Tram departure board"),
    ("recipe-scaler", ""), ("thesis", "LaTeX sources of my thesis"), ("wasm-game-of-life", ""),
    ("keyboard-firmware", "QMK keymap for a split keyboard"), ("photo-sorter", "Sorts photos by EXIF date"),
]
CONTRIB_ROLES = Weighted(["ML Engineer", "Back-end Developer", "Front-end Developer", "Maintainer", "Core Contributor",
                          "Full-stack Developer", "DevOps Engineer", "Documentation Writer", "Contributor",
                          "Tester", "Data Engineer", "Security Reviewer"],
                         [10, 14, 10, 6, 8, 6, 4, 2, 12, 2, 3, 1])
SPOKEN_EXTRA = ["English", "Spanish", "French", "German", "Mandarin", "Japanese", "Hindi", "Portuguese",
                "Dutch", "Polish", "Russian", "Arabic", "Italian", "Korean", "Turkish", "Swahili", "Esperanto"]

TECH = ["Kafka", "Flink", "Kubernetes", "PostgreSQL", "Spark", "React", "TypeScript", "Go", "Rust", "PyTorch",
        "Terraform", "gRPC", "Redis", "Airflow", "Snowflake", "BigQuery", "Elasticsearch", "Django", "Spring Boot",
        "Node.js", "Swift", "Kotlin", "CUDA", "LLVM", "Cassandra", "RabbitMQ", "GraphQL", "dbt", "Helm",
        "ClickHouse", "Next.js", "FastAPI", "Android", "Unity", "WebAssembly", "OpenTelemetry", "Ray", "JAX"]
DOMAINS = ["payments", "search ranking", "fraud detection", "clinical trials", "logistics routing",
           "ad auctions", "recommendations", "identity and access", "observability", "mobile checkout",
           "data ingestion", "compiler back ends", "GPU scheduling", "video transcoding", "supply chain forecasting",
           "crop-yield models", "energy trading", "game servers", "customer support tooling", "genomics pipelines",
           "satellite imagery", "speech recognition", "document OCR", "warehouse robotics", "tax filing"]
TOPICS = ["parsing", "cli", "machine-learning", "compiler", "kubernetes", "database", "gpu", "web", "game",
          "embedded", "security", "devops", "data", "visualization", "nlp", "robotics", "finance", "education"]

# rare-phrase building blocks
CODENAMES = ["Merganser", "Wren", "Obsidian", "Marlin", "Tamarind", "Heliotrope", "Bluefin", "Quokka", "Sorrel",
             "Cassowary", "Nightjar", "Axolotl", "Pangolin", "Ibex", "Basilisk", "Tardigrade", "Okapi", "Lyrebird",
             "Gannet", "Kinkajou", "Saola", "Vicuña", "Shoebill", "Dugong", "Narwhal", "Serval", "Jacana", "Takin"]
SYSTEMS = ["telemetry bus", "ledger reconciler", "firmware updater", "query planner", "tile renderer",
           "consent registry", "fleet scheduler", "sepsis alert model", "tariff engine", "dispatch optimiser",
           "seed-bank catalogue", "tide forecaster", "braille transcoder", "ballot scanner", "rail signalling simulator",
           "kelp-farm monitor", "insulin dose calculator", "avalanche risk model", "dialect speech corpus",
           "spectrum auction simulator", "vaccine cold-chain tracker", "bee-hive acoustics classifier"]
OLYMPIADS = ["Baltic Olympiad in Informatics", "Central European Olympiad in Informatics",
             "Asia-Pacific Informatics Olympiad", "International Olympiad in Informatics",
             "Balkan Olympiad in Informatics", "European Girls' Olympiad in Informatics",
             "International Mathematical Olympiad", "Ibero-American Olympiad in Informatics",
             "Nordic Olympiad in Informatics", "International Physics Olympiad", "Pan-African Mathematics Olympiad",
             "Junior Balkan Mathematical Olympiad", "International Olympiad in Linguistics"]
LAB_ADJ = ["Robust", "Frugal", "Trustworthy", "Embodied", "Verifiable", "Low-Resource", "Energy-Aware",
           "Humane", "Sparse", "Probabilistic", "Accessible", "Resilient"]
LAB_FIELD = ["Vision", "Language Technology", "Systems", "Computing", "Robotics", "Program Synthesis",
             "Speech", "Cryptography", "Hardware", "Data Stewardship", "Medical Imaging", "Networking"]
PRIZE_TOPIC = ["Open Hardware", "Privacy Engineering", "Civic Software", "Accessible Interfaces",
               "Compiler Research", "Humanitarian Mapping", "Rural Connectivity", "Scientific Software",
               "Energy-Efficient Computing", "Indigenous Language Technology"]
HACKATHONS = ["Hack the Harbour", "Code for the Coast", "Night of Open Data", "Fjord Hack", "Monsoon Jam",
              "Desert Bytes", "Lakeside Hackfest", "Alpine Code Camp", "Savannah Sprint", "Northern Lights Hack"]
TALK_TITLES = ["Garbage Collectors Dream of Electric Sheep", "Ninety-Nine Ways to Lose a Packet",
               "The Scheduler Who Loved Me", "Consistency Is a Feeling", "Monads for Tax Accountants",
               "Your Cache Is Lying to You", "Fear and Loathing in the Build Graph", "A Field Guide to Flaky Tests",
               "How I Learned to Stop Worrying and Love the Borrow Checker", "Latency Is a Love Language",
               "Small Models for Small Villages", "Rewriting the Payroll in Nine Weekends"]
CONFS = ["PyCon", "JSConf", "RustConf", "GopherCon", "KubeCon", "DevFest", "FOSDEM", "Strange Loop", "EuroPython",
         "NodeConf", "DataEngConf", "Linux Plumbers Conference"]
CORPUS_LANGS = ["Hausa", "Quechua", "Sámi", "Yoruba", "Welsh", "Basque", "Tagalog", "Amharic", "Faroese",
                "Maltese", "Kurdish", "Guarani", "Tamil", "Sinhala", "Khmer"]
CORPUS_DOMAIN = ["court transcripts", "radio broadcasts", "market-price SMS", "folk songs", "weather bulletins",
                 "parliament debates", "maternity-clinic notes", "fishing logs", "street signs", "children's books"]

COMMON_AWARDS = Weighted([
    ("Chancellor's Scholarship", "Ministry of Higher Education"), ("Best Paper Award", "Workshop on Storage Systems"),
    ("Dean's List", None), ("Bronze medal in the National Informatics Olympiad", None),
    ("Doctoral Training Grant", "Research Council"), ("Ellery Graduate Fellowship", "Faculty of Science"),
    ("Employee of the Quarter", None), ("Hackathon winner", None), ("Best Student Paper", "Conference on Data Systems"),
    ("Summer of Code student", None), ("Outstanding Teaching Assistant Award", None),
    ("ICPC Regional Finalist", None), ("Spot Award", None), ("Open Source Peer Bonus", None),
    ("Women in Computing Scholarship", "Computing Society"), ("Top Performer Award", None),
], [6, 3, 8, 3, 2, 2, 4, 4, 1, 3, 1.5, 2, 3, 2, 1.5, 3])

ACADEMIC_TITLES = Weighted(["Research Assistant", "Undergraduate Research Assistant", "Intern", "Research Intern",
                            "PhD Student", "Postdoctoral Researcher", "Teaching Assistant", "Visiting Researcher",
                            "Graduate Research Assistant"], [10, 6, 6, 5, 5, 2.5, 4, 1, 4])
LAB_NAMES = ["High Performance Computing Lab", "Perception Group", "Programming Languages Group", "Distributed Systems Lab",
             "Machine Learning Group", "Human-Computer Interaction Lab", "Networked Systems Group",
             "Security and Privacy Lab", "Computational Biology Lab", "Robotics Institute", "Data Systems Group",
             "Quantum Computing Lab", "Embedded Systems Lab", "NLP Group", "Formal Methods Group"]

BADGES = [("🌱", "Open Source Contributor"), ("🎓", "Top School"), ("🏢", "Top Company"), ("👤", "Senior")]
FOOTER = ("Find and Hire Top DevelopersWe’ve analyzed the source code of millions of developers and "
          "scored them by skill. Sign up to search for developers.")

NICK_WORDS = ["quiet", "coder", "byte", "pixel", "null", "kernel", "lambda", "hex", "async", "rusty", "tea",
              "owl", "fox", "nomad", "ghost", "void", "monad", "stack", "loop", "cosmic", "tiny", "night"]


# ---------------------------------------------------------------------------
# The world: seeded pools shared by all persons of one run
# ---------------------------------------------------------------------------
import zlib  # noqa: E402


class World:
    def __init__(self, seed, count):
        self.seed = seed
        self.rng = random.Random(seed * 7919 + 17)
        self._fakers = {}
        self.countries = Weighted(COUNTRIES, [c[2] for c in COUNTRIES])
        self.used_logins = set()
        self.used_tail = set()
        self.used_phrases = set()
        self.next_gh_id = 1000 + self.rng.randrange(5000)
        rng = self.rng
        # mid-size employers (a few hundred for a big run, fewer for a small one)
        n_mid = min(300, max(60, count // 25))
        names, seen = [], set()
        while len(names) < n_mid:
            n = f"{rng.choice(MID_WORD_A)} {rng.choice(MID_WORD_B)}"
            if n not in seen:
                seen.add(n)
                names.append(n)
        self.mid = names
        self.mid_set = seen
        self.mid_pick = Weighted(range(n_mid), zipf_weights(n_mid, 0.75, 10.0))
        self.head_pick = Weighted(range(len(HEAD_EMPLOYERS)), zipf_weights(len(HEAD_EMPLOYERS), 0.7, 1.5))
        # shared organisation repositories (mid-popular, a few to a few dozen persons each)
        n_org = min(200, max(20, count // 100))
        repos, seen = [], set()
        while len(repos) < n_org:
            org = slugify(rng.choice(self.mid))
            full = f"{org}/{rng.choice(ORG_REPO_WORDS)}"
            if full in seen:
                continue
            seen.add(full)
            repos.append((full, rng.choice(ORG_REPO_DESCR), rng.choice(["Go", "Python", "Rust", "TypeScript", "Java", "C++", "Scala", "Kotlin"])))
        self.org_repos = repos
        self.org_pick = Weighted(range(n_org), zipf_weights(n_org, 0.9, 2.0))
        self.pop_pick = Weighted(range(len(POPULAR_REPOS)), zipf_weights(len(POPULAR_REPOS), 1.0, 1.0))
        self.global_uni_pick = Weighted(GLOBAL_UNIS, zipf_weights(len(GLOBAL_UNIS), 0.8, 2.0))
        self.uni_picks = {k: Weighted(v, zipf_weights(len(v), 1.0, 1.0)) for k, v in BIG_UNIS.items()}

    def unique_handle(self, rng, base, maxlen=None):
        h = base[:maxlen] if maxlen else base
        while h in self.used_logins:
            tail = str(rng.randrange(2, 999))
            h = (base[:maxlen - len(tail)] if maxlen else base) + tail
        self.used_logins.add(h)
        return h

    def faker(self, loc):
        f = self._fakers.get(loc)
        if f is None:
            try:
                f = Faker(loc)
            except Exception:
                f = Faker("en_US")
            f.seed_instance(self.seed * 1_000_003 + zlib.crc32(loc.encode()))
            self._fakers[loc] = f
        return f

    def name(self, rng, loc):
        if loc.startswith("x_"):
            firsts, lasts = CUSTOM_NAMES[loc]
            return rng.choice(firsts), rng.choice(lasts)
        f = self.faker(loc)
        if loc in ("ja_JP", "zh_CN"):
            return f.first_romanized_name(), f.last_romanized_name()
        return f.first_name(), f.last_name()

    def any_name(self, rng):
        loc = rng.choice(GLOBAL_LOCALES)
        first, last = self.name(rng, loc)
        return f"{first} {last}"

    def surname(self, rng, loc=None):
        return self.name(rng, loc or rng.choice(GLOBAL_LOCALES))[1]


# ---------------------------------------------------------------------------
# Small generators
# ---------------------------------------------------------------------------

def pick_employer(world, rng, iso, loc):
    """Return (canonical, written, kind, github_company_field)."""
    r = rng.random()
    if r < 0.35:
        canon, variants, slug = HEAD_EMPLOYERS[world.head_pick.pick(rng)]
        written = canon if rng.random() < 0.8 else rng.choice(variants)
        gh = f"@{slug}" if rng.random() < 0.4 else written
        return canon, written, "head", gh
    if r < 0.74:
        canon = world.mid[world.mid_pick.pick(rng)]
        gh = f"@{slugify(canon)}" if rng.random() < 0.3 else canon
        return canon, canon, "mid", gh
    if r < 0.755:
        canon = rng.choice(["Freelance", "Self-employed", "Freelance"])
        return canon, canon, "freelance", canon
    # long tail: a firm nobody else in the set has
    for _ in range(50):
        k = rng.random()
        s1 = world.surname(rng, loc if rng.random() < 0.7 else None)
        if k < 0.35:
            name = f"{s1} {rng.choice(TAIL_SUFFIX)}"
        elif k < 0.55:
            name = f"{s1}{TAIL_LEGAL.get(iso, ' Ltd')}"
        elif k < 0.75:
            name = f"{rng.choice(TAIL_WORD)} {rng.choice(MID_WORD_B)}"
        elif k < 0.88:
            name = f"{s1} & {world.surname(rng, loc)}"
        else:
            name = f"{s1}-{world.surname(rng)} {rng.choice(TAIL_SUFFIX)}"
        if name not in world.used_tail and name not in world.mid_set:
            world.used_tail.add(name)
            return name, name, "tail", name
    name = f"{s1} {rng.choice(TAIL_SUFFIX)} {rng.randrange(100, 999)}"
    world.used_tail.add(name)
    return name, name, "tail", name


def pick_title(rng, senior_bias=0.0):
    weights = [r[0] for r in ROLES]
    role_i = Weighted(range(len(ROLES)), weights).pick(rng) if not hasattr(pick_title, "_w") else pick_title._w.pick(rng)
    _, forms, takes = ROLES[role_i]
    base = forms[0] if rng.random() < 0.5 else rng.choice(forms)
    sen = SENIORITY.pick(rng) if takes else ""
    if senior_bias < 0 and sen and rng.random() < 0.6:
        sen = ""
    if sen.startswith("@"):
        title = f"{base}{sen[1:] if sen[1] == ' ' else ' ' + sen[1:]}"
    else:
        title = f"{sen}{base}"
    if rng.random() < 0.12:
        title += SPECIALISATION.pick(rng)
    is_senior = any(w in sen for w in ("Senior", "Sr", "Staff", "Principal", "Lead", "Distinguished", "III", "L5", "IV"))
    return title, role_i, is_senior


pick_title._w = Weighted(range(len(ROLES)), [r[0] for r in ROLES])


def pick_institution(world, rng, iso, country_cities, loc):
    r = rng.random()
    if iso in world.uni_picks and r < 0.58:
        return world.uni_picks[iso].pick(rng)
    if r < 0.70:
        return world.global_uni_pick.pick(rng)
    city = rng.choice(country_cities).split("|")[0]
    pat = rng.choice(SMALL_COLLEGE_PATTERNS)
    return pat.format(city=city, saint=rng.choice(SAINTS), surname=world.surname(rng, loc))


def commits_count(rng):
    v = int(math.exp(rng.gauss(3.4, 1.6)))
    if rng.random() < 0.01:
        v = rng.randrange(3000, 20001)
    return max(1, min(20000, v))


def month_span(rng, lo=FIRST_MONTH, hi=LAST_MONTH):
    start = rng.randrange(lo, hi - 2)
    dur = min(int(rng.expovariate(1 / 16.0)), 120)
    end = min(start + dur, hi)
    return start, end


def fmt_month(m):
    return f"{MONTHS[m % 12]} {m // 12}"


def fmt_duration(months):
    y, m = divmod(months, 12)
    parts = []
    if y:
        parts.append(f"{y} year{'s' if y != 1 else ''}")
    if m or not y:
        parts.append(f"{m} month{'s' if m != 1 else ''}")
    return " ".join(parts)


def make_login(world, rng, first, last):
    f, l = slugify(first, ""), slugify(last, "")
    f = f or "dev"
    l = l or "coder"
    k = rng.random()
    if k < 0.2:
        base = f + l
    elif k < 0.4:
        base = f[0] + l
    elif k < 0.55:
        base = f"{f}-{l}"
    elif k < 0.65:
        base = f"{f}{l[0]}"
    elif k < 0.75:
        base = f"{f}{rng.randrange(1, 99)}"
    elif k < 0.85:
        base = f"{rng.choice(NICK_WORDS)}{rng.choice(NICK_WORDS)}-{rng.randrange(10, 99)}"
    elif k < 0.93:
        base = f"{f}_{l}"
    else:
        base = f"{l}{f[:2]}"
    base = base[:30]
    login = base
    while login in world.used_logins:
        login = f"{base}{rng.randrange(2, 9999)}"
    world.used_logins.add(login)
    return login


def make_email(rng, first, last, login, employer):
    f, l = slugify(first, ""), slugify(last, "")
    f, l = f or "hello", l or "dev"
    local = rng.choice([f, f"{f}.{l}", f"{f[0]}{l}", f"{f}_{l}{rng.randrange(1, 99)}", login, f"{l}.{f}"])
    k = rng.random()
    if k < 0.3:
        dom = f"{login}.example.org"
    elif k < 0.55:
        dom = rng.choice(["example.com", "mail.example.net", "inbox.example", "post.example.org"])
    elif k < 0.8:
        dom = f"{slugify(employer) or 'work'}.example.com"
    else:
        dom = f"{slugify(last) or 'home'}-family.example.net"
    return f"{local}@{dom}"


def make_url(rng, login, first, last):
    k = rng.random()
    if k < 0.35:
        return f"https://{login}.example.org"
    if k < 0.6:
        return f"https://{login}.github.io"
    if k < 0.8:
        return f"https://{slugify(first + ' ' + last)}.example.dev"
    return f"https://blog.{login}.example.com/about"


# ---------------------------------------------------------------------------
# Rare phrases: distinctive strings a web search would find
# ---------------------------------------------------------------------------

def rare_phrase(world, rng, loc, iso, cities):
    for _ in range(100):
        k = rng.randrange(9)
        year = rng.randrange(2008, 2026)
        if k == 0:
            p = f"Project {rng.choice(CODENAMES)}-{rng.randrange(2, 99)} {rng.choice(SYSTEMS)}"
            sents = ["Led {p}.", "{F} designed {p}, which is still running in production.",
                     "Built {p} from the first commit to general availability.",
                     "{F} is best known internally for {p}."]
        elif k == 1:
            medal = rng.choice(["gold", "silver", "bronze", "silver", "bronze", "honourable mention"])
            p = f"{year} {rng.choice(OLYMPIADS)} {medal}{' medal' if medal != 'honourable mention' else ''}"
            sents = ["Awarded the {p}.", "{F} won the {p} while still at school.", "Holds a {p}."]
        elif k == 2:
            p = f"the {world.surname(rng)} Lab for {rng.choice(LAB_ADJ)} {rng.choice(LAB_FIELD)}"
            sents = ["Was a visiting researcher at {p}.", "{F} spent two summers at {p}.",
                     "Collaborated with {p} on evaluation benchmarks."]
        elif k == 3:
            p = f"{year} {world.surname(rng)} Fellowship in {rng.choice(PRIZE_TOPIC)}"
            sents = ["Recipient of the {p}.", "{F} was awarded the {p}.", "Funded by the {p}."]
        elif k == 4:
            p = f"the {rng.choice(CODENAMES)}-{rng.choice(CODENAMES)} {rng.choice(['ledger', 'billing', 'routing', 'search', 'identity', 'telemetry'])} migration"
            sents = ["Ran {p} end to end.", "{F} coordinated {p} across four teams.", "Owned {p}."]
        elif k == 5:
            p = f"{world.surname(rng)} Prize for {rng.choice(PRIZE_TOPIC)} ({year})"
            sents = ["Won the {p}.", "{F} received the {p}.", "Shortlisted, then awarded, the {p}."]
        elif k == 6:
            p = f"first place at {rng.choice(cities).split('|')[0]} {rng.choice(HACKATHONS)} {year}"
            sents = ["Took {p}.", "{F}'s team took {p}.", "Our prototype took {p}."]
        elif k == 7:
            p = f"keynote '{rng.choice(TALK_TITLES)}' at {rng.choice(CONFS)} {rng.choice(cities).split('|')[0]} {year}"
            sents = ["Gave the {p}.", "{F} gave the {p}.", "{F} was invited to give the {p}."]
        else:
            p = f"the {rng.choice(CODENAMES)}-{rng.randrange(3, 40)} corpus of {rng.choice(CORPUS_LANGS)} {rng.choice(CORPUS_DOMAIN)}"
            sents = ["Compiled {p}, now used by three universities.", "{F} released {p} under an open licence.",
                     "Curated {p}."]
        if p not in world.used_phrases:
            world.used_phrases.add(p)
            return p, sents
    return p, sents


# ---------------------------------------------------------------------------
# Free text
# ---------------------------------------------------------------------------
QUALITIES = ["performance", "clear APIs", "careful testing", "readable code", "pragmatic design",
             "fast feedback loops", "observability", "documentation", "accessibility", "reliability"]
VALUES = ["blameless post-mortems", "small pull requests", "boring technology", "mentoring juniors",
          "writing things down", "inclusive hiring", "reproducible builds", "honest estimates"]
HOBBIES = ["climbs badly but often", "bakes sourdough", "plays chess online", "runs a local meetup",
           "restores old synthesisers", "birdwatches", "translates docs into {lang}", "coaches a robotics club",
           "cycles to work year-round", "writes short fiction", "brews cider", "plays bass in a covers band"]
ACTIVITIES = ["splitting the query module and adding property tests", "fixing flaky integration tests",
              "improving the documentation", "porting modules to {tech}", "adding type hints",
              "profiling hot paths", "reviewing pull requests", "triaging issues", "writing benchmarks",
              "cleaning up the build", "adding {tech} support", "reducing memory use"]
GOALS = ["shrinking the binary size", "making startup faster", "lowering tail latency",
         "making the API easier to learn", "supporting more platforms", "improving error messages",
         "cutting CI time", "making releases reproducible", "hardening input validation"]
BULLETS = [
    "Built an event pipeline on {tech} and {tech2} that handles {n} million records a day.",
    "Moved {n} services onto {tech} without a customer-visible outage.",
    "Cut p99 latency by {pct}% for {domain} by rewriting the hot path in {tech}.",
    "Coached {small} interns through their first production launches.",
    "Headed a squad of {small} engineers delivering {domain} tooling in {tech}.",
    "Co-authored {small} peer-reviewed papers on {domain}.",
    "Owned the on-call rotation for the {domain} platform ({n} pages a quarter down to {small}).",
    "Introduced {tech} for {domain}, replacing a {year}-era cron setup.",
    "Worked with {colleague} on {domain}; shipped to {n} thousand users.",
    "Built the first version of the {domain} dashboard in {tech}.",
    "Reduced cloud spend by {pct}% by right-sizing {tech} clusters.",
    "Wrote the design doc for {domain} and drove it through review.",
    "Automated {domain} reporting, saving about {small} days of manual work a month.",
    "Maintained the internal {tech} SDK used by {n} engineers.",
    "Ran user interviews with {small} customers to shape the {domain} roadmap.",
    "Ported the {domain} service from {tech2} to {tech}.",
    "Taught a weekly {tech} clinic for new hires.",
]


def fill(rng, s, ctx):
    return s.format(
        tech=rng.choice(TECH), tech2=rng.choice(TECH), n=rng.randrange(2, 900), pct=rng.randrange(8, 85),
        small=rng.randrange(2, 9), domain=rng.choice(DOMAINS), year=rng.randrange(2008, 2022),
        lang=rng.choice(SPOKEN_EXTRA), **ctx)


def rare_sentence(rng, item, first):
    p, sents = item
    return rng.choice(sents).replace("{F}", first).replace("{p}", p)


def long_text(rng, ctx, pending, target_words, first_person=False, ids_text=None):
    """Bio / summary of about target_words words, taking all pending rare-phrase items."""
    F = ctx["first"]
    opening = [
        "{full} is a {title} in {city} with {years} years in {dom}.",
        "{first} is a {title} at {company}, based in {city}.",
        "Based in {city}, {first} works on {dom} at {company}.",
        "{full} has spent {years} years writing software, most recently as {title} at {company}.",
        "{first} builds {dom} infrastructure with {tech} and {tech2}.",
        "{full} ({city}) is a {title} who cares about {quality}.",
    ] if not first_person else [
        "I'm a {title} in {city} who likes {tech}, {value} and good documentation.",
        "I build {dom} systems at {company}.",
        "Hi! I am {first}, a {title} working mostly with {tech}.",
        "{title} at {company}. {years} years in the industry, most of them on {dom}.",
        "Software person in {city}. I work on {dom} and like {quality}.",
    ]
    body3 = [
        "At {company} {first} works with {colleague} on {dom}.",
        "{first} led the move from {tech2} to {tech}, cutting p99 latency by {pct}%.",
        "Before that, {first} spent {small} years at {prev} working on {dom2}.",
        "{first}'s open-source work on {proj} shows a knack for {quality}.",
        "Outside work {first} {hobby}.",
        "{first} studied {field} at {inst}, supervised by {supervisor}.",
        "{first} cares about {value} and {value2}.",
        "Currently exploring {tech} for {dom2}.",
        "Colleagues describe {first} as the person who reads the whole stack trace.",
        "{first} has mentored {small} engineers into senior roles.",
        "Most of {first}'s recent work is on {dom2}, with a side interest in {tech}.",
        "{first} writes occasionally about {quality} and {dom}.",
        "Together with {colleague}, {first} maintains the team's {tech} style guide.",
        "{first} joined {company} in {year} after a stint in {dom2}.",
    ]
    body1 = [
        "I work with {colleague} on {dom} at {company}.",
        "I led our move from {tech2} to {tech} and cut p99 latency by {pct}%.",
        "Before {company} I spent {small} years at {prev} on {dom2}.",
        "I contribute to {proj} when I can.",
        "Outside work I {hobby_1p}.",
        "I studied {field} at {inst} with {supervisor}.",
        "I care about {value} and {value2}.",
        "Lately I have been exploring {tech} for {dom2}.",
        "I have mentored {small} engineers and I still learn from every one of them.",
        "Open to talks about {dom} and {tech}.",
        "Ask me about {quality}.",
    ]
    body = body1 if first_person else body3

    def f(s):
        hobby = rng.choice(HOBBIES).replace("{lang}", rng.choice(SPOKEN_EXTRA))
        return s.format(
            full=ctx["full"], first=F, title=ctx["title"], city=ctx["city"], years=ctx["years"],
            company=ctx["company"], colleague=ctx["colleague"], supervisor=ctx["supervisor"],
            prev=ctx["prev"], inst=ctx["inst"], field=ctx["field"], proj=ctx["proj"],
            dom=ctx["dom"], dom2=rng.choice(DOMAINS), tech=rng.choice(TECH), tech2=rng.choice(TECH),
            pct=rng.randrange(8, 85), small=rng.randrange(2, 9), year=rng.randrange(2010, 2026),
            quality=rng.choice(QUALITIES), value=rng.choice(VALUES), value2=rng.choice(VALUES),
            hobby=hobby, hobby_1p=hobby.replace("climbs", "climb").replace("bakes", "bake").replace("plays", "play")
            .replace("runs", "run").replace("restores", "restore").replace("birdwatches", "birdwatch")
            .replace("translates", "translate").replace("coaches", "coach").replace("cycles", "cycle")
            .replace("writes", "write").replace("brews", "brew"))

    sents = [f(rng.choice(opening))]
    rare = [rare_sentence(rng, it, "I" if first_person else F).replace("I's", "My") for it in pending]
    pending.clear()
    order = rng.sample(body, len(body))
    words = len(sents[0].split()) + sum(len(r.split()) for r in rare)
    i = 0
    while words < target_words and i < len(order) * 2:
        s = f(order[i % len(order)])
        i += 1
        sents.append(s)
        words += len(s.split())
    for r in rare:
        sents.insert(rng.randrange(1, len(sents) + 1), r)
    if ids_text:
        sents.append(ids_text)
    return " ".join(sents)


# ---------------------------------------------------------------------------
# A person (the facts shared by all formats)
# ---------------------------------------------------------------------------

def skewed_index(rng, n, alpha=1.2):
    return min(int(rng.paretovariate(alpha)) - 1, n - 1)


def make_core(world, rng, idx, fmt):
    country = world.countries.pick(rng)
    cname, iso, _, cc, cities, locs, spoken = country
    loc = rng.choice(locs) if rng.random() > 0.12 else rng.choice(GLOBAL_LOCALES)
    first, last = world.name(rng, loc)
    city_s = cities[skewed_index(rng, len(cities), 1.1)]
    city, _, state = city_s.partition("|")
    emp_canon, emp_written, emp_kind, gh_company = pick_employer(world, rng, iso, loc)
    title, role_i, is_senior = pick_title(rng)
    while emp_kind in ("head", "mid") and ROLES[role_i][1][0] == "CTO":
        title, role_i, is_senior = pick_title(rng)
    years = max(1, min(40, int(rng.gammavariate(2.2, 4.5))))
    n_edu = 1 if rng.random() < 0.7 else (2 if rng.random() < 0.85 else 3)
    edu = []
    for _ in range(n_edu):
        deg, abbr = DEGREES.pick(rng)
        edu.append((deg, abbr, FIELDS.pick(rng), pick_institution(world, rng, iso, cities, loc)))
    login = make_login(world, rng, first, last)
    email = make_email(rng, first, last, login, emp_canon)
    phone = phone_for(rng, iso, cc)
    url = make_url(rng, login, first, last)
    n_rare = rng.choice([1, 1, 1, 2, 2, 3])
    rare = [rare_phrase(world, rng, loc, iso, cities) for _ in range(n_rare)]
    langs = [rng.choice(spoken)]
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        lang = rng.choice(spoken + SPOKEN_EXTRA)
        if lang not in langs:
            langs.append(lang)
    prev_canon, prev_written, prev_kind, _ = pick_employer(world, rng, iso, loc)
    while prev_kind == "freelance":
        prev_canon, prev_written, prev_kind, _ = pick_employer(world, rng, iso, loc)
    return dict(
        idx=idx, fmt=fmt, country=cname, iso=iso, city=city, state=state, cities=cities, loc=loc,
        first=first, last=last, full=f"{first} {last}", employer=emp_canon, employer_written=emp_written,
        employer_kind=emp_kind, gh_company=gh_company, title=title, role_i=role_i, is_senior=is_senior,
        years=years, edu=edu, login=login, email=email, phone=phone, url=url, rare=rare, langs=langs,
        colleague=world.any_name(rng), supervisor=world.any_name(rng), prev=prev_written,
        emails=[], phones=[], handles=[], urls=[],
    )


def ctx_for(p, rng, proj=None):
    proj = proj or POPULAR_REPOS[skewed_index(rng, len(POPULAR_REPOS), 0.8)][0].split("/")[1]
    return dict(full=p["full"], first=p["first"], title=p["title"], city=p["city"], years=p["years"],
                company=p["employer_written"], colleague=p["colleague"], supervisor=p["supervisor"],
                prev=p["prev"], inst=p["edu"][0][3], field=p["edu"][0][2], proj=proj, dom=rng.choice(DOMAINS))


def word_target(rng, hi=250):
    return max(30, min(hi, int(rng.lognormvariate(math.log(75), 0.55))))


def ids_sentence(p, rng, first_person):
    """Sometimes put direct identifiers into the free text."""
    r = rng.random()
    if r < 0.12:
        p["emails"].append(p["email"])
        return rng.choice(["Reach me at {e}.", "Contact: {e}", "Say hi: {e}"]).format(e=p["email"]) if first_person \
            else rng.choice(["Reach {f} at {e}.", "Contact: {e}"]).format(f=p["first"], e=p["email"])
    if r < 0.20:
        p["urls"].append(p["url"])
        return rng.choice(["More at {u}", "Portfolio: {u}", "Writing: {u}"]).format(u=p["url"])
    if r < 0.24:
        p["phones"].append(p["phone"])
        return f"Phone: {p['phone']}"
    return None


def pick_skills(rng, k):
    out = []
    while len(out) < k:
        s = SKILLS.pick(rng)
        if s not in out:
            out.append(s)
    return out


def make_contribs(world, rng, p, n):
    out, seen = [], set()
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            full, descr, lang = POPULAR_REPOS[world.pop_pick.pick(rng)]
            kind = "popular"
        elif r < 0.70:
            full, descr, lang = world.org_repos[world.org_pick.pick(rng)]
            kind = "org"
        else:
            rname, descr = rng.choice(PERSONAL_REPOS)
            full = f"{p['login']}/{rname}"
            descr = descr or "Personal project."
            lang = LANGS.pick(rng)
            kind = "personal"
        if full in seen:
            continue
        seen.add(full)
        start, end = month_span(rng)
        out.append(dict(repo=full, descr=descr, lang=lang, kind=kind, start=start, end=end,
                        commits=commits_count(rng), role=CONTRIB_ROLES.pick(rng)))
    if any(c["kind"] == "personal" for c in out):
        p["handles"].append(p["login"])
    return out


def contrib_summary(rng, p, c, pending):
    F = p["first"]
    act = rng.choice(ACTIVITIES).replace("{tech}", rng.choice(TECH))
    goal = rng.choice(GOALS)
    forms = [
        f"{F}'s commits mostly concern {act}; the focus is {goal}.",
        f"Mostly {act}; the larger changes aim at {goal}.",
        f"{F} contributed {c['commits']} commits, mainly {act}, with an eye on {goal}.",
        f"Commits by {F} cover {act} and {rng.choice(ACTIVITIES).replace('{tech}', rng.choice(TECH))}. Focus: {goal}.",
        f"Their changes center on {act}, and several pull requests target {goal}.",
    ]
    s = rng.choice(forms)
    if rng.random() < 0.15:
        s += f" Reviewed mostly by {p['colleague']}."
    if pending and rng.random() < 0.5:
        s += " " + rare_sentence(rng, pending.pop(0), F)
    return s


# ---------------------------------------------------------------------------
# Format 1: talent page
# ---------------------------------------------------------------------------

def render_talent(world, rng, p):
    pending = list(p["rare"])
    n_contrib = min(7, int(rng.expovariate(1 / 2.2)))
    contribs = make_contribs(world, rng, p, n_contrib)
    proj = ", ".join(c["repo"].split("/")[1] for c in contribs[:2]) or "small side projects"
    ctx = ctx_for(p, rng, proj)
    ids = ids_sentence(p, rng, False)
    # keep some rare phrases for the contribution summaries
    for_summary = [it for it in pending if not contribs or rng.random() < 0.6]
    keep = [it for it in pending if it not in for_summary]
    summary = long_text(rng, ctx, for_summary, word_target(rng, 190), first_person=rng.random() < 0.2, ids_text=ids)
    badges = []
    if p["employer_kind"] == "head" and rng.random() < 0.8:
        badges.append(BADGES[2])
    if len(contribs) >= 2 and rng.random() < 0.7:
        badges.append(BADGES[0])
    if p["edu"][0][3] in GLOBAL_UNIS[:3] or rng.random() < 0.2:
        badges.append(BADGES[1])
    if p["is_senior"] and rng.random() < 0.6:
        badges.append(BADGES[3])
    rng.shuffle(badges)
    if not badges and rng.random() < 0.85:
        badges.append(rng.choice(BADGES))
    name_line = f"{p['first']}  {p['last']}" if rng.random() < 0.2 else p["full"]
    loc_line = f"{p['city']}, {p['state']}, {p['country']}" if p["state"] else f"{p['city']}, {p['country']}"
    deg, _, field, inst = p["edu"][0]
    edu_line = f"{deg}, {field}, {deg}, {field} at {inst}" if rng.random() < 0.65 else f"{deg}, {field} at {inst}"
    lines = [name_line, f"{p['title']} at {p['employer_written']}", loc_line, "Summary"]
    if badges:
        chunk = "\n".join(f"{e}\n{label}" for e, label in badges)
        lines.append(chunk + summary)
    else:
        lines.append(summary)
    coding = max(1, p["years"] + rng.randrange(-2, 6))
    lines += [f"{coding} years of coding experience", f"{p['years']} years of employment as a software developer",
              edu_line, ", ".join(p["langs"])]
    n_sk = max(1, min(16, int(rng.gauss(9, 3.5))))
    skills = pick_skills(rng, n_sk)
    scores = sorted((rng.choice([5, 6, 6, 7, 7, 8, 8, 9, 9, 10]) for _ in skills), reverse=True)
    hdr = n_sk + (rng.randrange(1, 4) if rng.random() < 0.35 else 0)
    lines.append(f"Github Skills ({hdr})")
    lines += [f"{s}{sc}" for s, sc in zip(skills, scores)]
    n_pl = min(6, int(rng.expovariate(1 / 2.5)))
    pls = []
    while len(pls) < n_pl:
        l = LANGS.pick(rng)
        if l not in pls:
            pls.append(l)
    hdr = n_pl + (rng.randrange(1, 3) if rng.random() < 0.3 else 0)
    lines.append(f"Programming languages ({hdr})")
    lines += [f"{l}{rng.randrange(5, 11)}" for l in pls]
    hdr = len(contribs) + (rng.randrange(1, 3) if rng.random() < 0.15 else 0)
    lines.append(f"Github contributions ({hdr})")
    for i, c in enumerate(contribs):
        if i == len(contribs) - 1 and keep:
            pending_c = keep
        else:
            pending_c = keep if rng.random() < 0.5 else []
        descr = c["descr"]
        if c["kind"] == "personal" and pending_c and rng.random() < 0.5:
            descr = f"{descr.rstrip('.')} (part of {pending_c.pop(0)[0]})."
            # the phrase sits in the description; keep it in truth as planted
        summ = contrib_summary(rng, p, c, pending_c)
        while i == len(contribs) - 1 and pending_c:
            summ += " " + rare_sentence(rng, pending_c.pop(0), p["first"])
        role = c["role"]
        role_line = f"Role in this project:\n{role}" if rng.random() < 0.5 else f"Role in this project:{role}"
        tags = "".join(pick_skills(rng, rng.randrange(1, 6)))
        lines += [c["repo"], f"{fmt_month(c['start'])} - {fmt_month(c['end'])}", descr, role_line,
                  f"{role}Contributions:{c['commits']} commits in {fmt_duration(c['end'] - c['start'])}",
                  f"Contributions summary:{summ}", tags]
    lines.append(FOOTER)
    text = "\n".join(lines) + "\n"
    p["quasi_contribs"] = [(c["repo"], c["commits"], c["start"], c["end"]) for c in contribs]
    return text, "txt"


# ---------------------------------------------------------------------------
# Format 2: text resume
# ---------------------------------------------------------------------------

def career(world, rng, p, n_pos):
    """Positions, newest first: list of dicts with title, org, org_canonical, supervisor, start, end."""
    pos = []
    end = None  # None = present
    cursor = NOW_MONTH
    for i in range(n_pos):
        dur = max(3, int(rng.gammavariate(2.0, 14)))
        start = max(1996 * 12, cursor - dur)
        if i == 0:
            title, org, canon, sup = p["title"], p["employer_written"], p["employer"], None
            if rng.random() < 0.08:
                org = f"{org}, {rng.choice(['Applied AI', 'Cloud Division', 'Platform Group', 'Research', 'Payments'])}"
        elif rng.random() < 0.25 or (i == n_pos - 1 and rng.random() < 0.4):
            title = ACADEMIC_TITLES.pick(rng)
            deg, _, _, inst = rng.choice(p["edu"])
            k = rng.random()
            lab = rng.choice(LAB_NAMES)
            org = f"{lab}, {inst}" if k < 0.5 else (f"{lab} at {inst}" if k < 0.8 else f"School of Engineering, {inst}")
            canon = inst
            sup = world.any_name(rng) if rng.random() < 0.6 else None
        else:
            title = pick_title(rng, senior_bias=-1.0)[0]
            canon, org, _, _ = pick_employer(world, rng, p["iso"], p["loc"])
            sup = None
        pos.append(dict(title=title, org=org, canon=canon, sup=sup, start=start, end=end))
        gap = rng.choice([0, 0, 0, 1, 2, 3, 6])
        end = start - gap
        cursor = end
        if cursor < 1997 * 12:
            break
    return pos


def make_bullets(rng, p, k, pending, first_person_name=False):
    out = []
    ctx = dict(colleague=p["colleague"])
    for _ in range(k):
        out.append(fill(rng, rng.choice(BULLETS), ctx))
    if pending and rng.random() < 0.6:
        out.insert(rng.randrange(len(out) + 1), rare_sentence(rng, pending.pop(0), p["first"]))
    if first_person_name and out:
        out[0] = f"{p['first']} " + out[0][0].lower() + out[0][1:]
    return out


def render_resume(world, rng, p):
    pending = list(p["rare"])
    n_pos = Weighted([1, 2, 3, 4, 5, 6], [10, 25, 28, 20, 11, 6]).pick(rng)
    pos = career(world, rng, p, n_pos)
    name_used = False
    blocks = ["Experience"]
    # awards: common ones, plus some rare ones become award lines
    awards = []
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
        a = COMMON_AWARDS.pick(rng)
        if a not in awards:
            awards.append(a)
    all_bullets = []
    for j, ps in enumerate(pos):
        k = rng.choice([1, 1, 2, 2, 3, 3, 4])
        use_name = (not name_used) and rng.random() < 0.15
        name_used = name_used or use_name
        bl = make_bullets(rng, p, k, pending, use_name)
        if j == len(pos) - 1:
            while pending:
                it = pending.pop(0)
                if rng.random() < 0.4 and any(w in it[0] for w in ("medal", "Fellowship", "Prize")):
                    awards.append((it[0], None))
                else:
                    bl.append(rare_sentence(rng, it, p["first"]))
        if j == 0:
            ids = ids_sentence(p, rng, True)
            if ids:
                bl.append(ids)
        all_bullets.append(bl)
    while sum(len(b.split()) for bl in all_bullets for b in bl) < 30:  # at least 30 words of free text
        all_bullets[0].append(fill(rng, rng.choice(BULLETS), dict(colleague=p["colleague"])))
    for ps, bl in zip(pos, all_bullets):
        blocks.append(ps["title"] + "\n" + "\n".join(f"- {b}" for b in bl))
        org = ps["org"]
        if ps["sup"]:
            org += f",\nsupervised by Dr. {ps['sup']}"
        blocks.append(org)
    for name, issuer in awards:
        blocks.append(name)
        if issuer:
            blocks.append(issuer)
    p["positions"] = [(x["title"], x["canon"]) for x in pos]
    return "\n\n".join(blocks), "txt"


# ---------------------------------------------------------------------------
# Format 3: JSON Resume
# ---------------------------------------------------------------------------

def ym(m, short=False):
    return f"{m // 12}" if short else f"{m // 12}-{m % 12 + 1:02d}"


def render_json_resume(world, rng, p):
    pending = list(p["rare"])
    n_pos = Weighted([1, 2, 3, 4, 5, 6], [10, 25, 28, 20, 11, 6]).pick(rng)
    pos = career(world, rng, p, n_pos)
    ctx = ctx_for(p, rng)
    n_in_summary = rng.randrange(0, len(pending) + 1)
    summ_items = pending[:n_in_summary]
    rest = pending[n_in_summary:]
    ids = ids_sentence(p, rng, True)
    summary_txt = long_text(rng, ctx, summ_items, word_target(rng, 170), first_person=rng.random() < 0.5, ids_text=ids)
    main_tech = rng.choice(TECH)
    summary_txt = summary_txt.replace(main_tech, f"<b>{main_tech}</b>", 1)
    if rng.random() < 0.7:
        summary_txt = f"<p>{summary_txt}</p>"
    basics = {"name": p["full"], "label": p["title"], "email": p["email"]}
    p["emails"].append(p["email"])
    if rng.random() < 0.4:
        basics["phone"] = p["phone"]
        p["phones"].append(p["phone"])
    if rng.random() < 0.6:
        basics["url"] = p["url"]
        p["urls"].append(p["url"])
    basics["summary"] = summary_txt
    location = {"city": p["city"], "countryCode": p["iso"]}
    if p["state"] and rng.random() < 0.5:
        location["region"] = p["state"]
    basics["location"] = location
    profiles = []
    if rng.random() < 0.85:
        profiles.append({"network": "GitHub", "username": p["login"], "url": f"https://github.com/{p['login']}"})
        p["handles"].append(p["login"])
        p["urls"].append(f"https://github.com/{p['login']}")
    if rng.random() < 0.25:
        tw = world.unique_handle(rng, p["login"].replace("-", "_") + rng.choice(["", "_dev", "codes"]), 15)
        profiles.append({"network": "Twitter", "username": tw, "url": f"https://twitter.com/{tw}"})
        p["handles"].append(tw)
        p["urls"].append(f"https://twitter.com/{tw}")
    if rng.random() < 0.1:
        m = f"@{p['login']}@fosstodon.example"
        profiles.append({"network": "Mastodon", "username": m, "url": f"https://fosstodon.example/@{p['login']}"})
        p["handles"].append(m)
    basics["profiles"] = profiles
    work = []
    for j, ps in enumerate(pos):
        key = "name" if (j == 0 or rng.random() < 0.4) else "company"
        short = rng.random() < 0.2
        w = {key: ps["org"].replace(",\n", ", "), "position": ps["title"], "startDate": ym(ps["start"], short),
             "endDate": "" if ps["end"] is None else ym(ps["end"], short)}
        if rng.random() < 0.6 or (j == len(pos) - 1 and rest):
            hl = make_bullets(rng, p, rng.randrange(1, 4), rest)
            if j == len(pos) - 1:
                while rest:
                    hl.append(rare_sentence(rng, rest.pop(0), p["first"]))
            w["highlights"] = hl
        work.append(w)
    education = []
    for deg, abbr, field, inst in p["edu"]:
        education.append({"institution": inst, "area": field, "studyType": abbr})
    skills = []
    for s in pick_skills(rng, rng.randrange(1, 6)):
        skills.append({"name": LANG_DISPLAY.get(s, s.replace("-", " ").title() if len(s) > 3 else s.upper()),
                       "keywords": [rng.choice(TECH) for _ in range(rng.randrange(0, 3))]})
    languages = [{"language": l, "fluency": "Native speaker" if i == 0 else rng.choice(["Fluent", "Professional working proficiency", "Conversational", "Basic"])}
                 for i, l in enumerate(p["langs"])]
    doc = {"basics": basics, "work": work, "education": education, "skills": skills, "languages": languages}
    projects = []
    for c in make_contribs(world, rng, p, rng.randrange(0, 4)):
        projects.append({"name": c["repo"].split("/")[1], "url": f"https://github.com/{c['repo']}",
                         "description": c["descr"], "keywords": [c["lang"].lower()]})
    if projects:
        doc["projects"] = projects
    if rng.random() < 0.3:
        doc["awards"] = [{"title": a[0], "awarder": a[1] or "", "date": str(rng.randrange(2008, 2026))}
                         for a in dict.fromkeys(COMMON_AWARDS.pick(rng) for _ in range(rng.randrange(1, 3)))]
    if rng.random() < 0.5:
        ref = rng.choice(["{f} never leaves a review waiting.", "{f} made our on-call humane.", "I would hire {f} again tomorrow.",
                          "{f} explains hard things simply and ships on time."]).format(f=p["first"])
        doc["references"] = [{"name": p["colleague"], "reference": ref}]
    p["positions"] = [(x["title"], x["canon"]) for x in pos]
    as_array = rng.random() < 0.1
    return json.dumps([doc] if as_array else doc, ensure_ascii=False, indent=2 if rng.random() < 0.85 else None) + "\n", "json"


# ---------------------------------------------------------------------------
# Format 4: GitHub user data
# ---------------------------------------------------------------------------

def gh_lang(l):
    return LANG_DISPLAY.get(l, l.capitalize())


def iso_ts(m, rng):
    return f"{m // 12}-{m % 12 + 1:02d}-{rng.randrange(1, 29):02d}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}Z"


def render_github(world, rng, p):
    pending = list(p["rare"])
    login = p["login"]
    p["handles"].append(login)
    p["urls"].append(f"https://github.com/{login}")
    created = rng.randrange(FIRST_MONTH, 2025 * 12)
    repos = []
    n_own = max(1, min(30, int(rng.expovariate(1 / 5.0))))
    for rname, descr in rng.sample(PERSONAL_REPOS, min(n_own, len(PERSONAL_REPOS))):
        c = max(created, rng.randrange(created, LAST_MONTH))
        descr = descr or None
        if pending and rng.random() < 0.3:
            descr = f"{(descr or 'Side project').rstrip('.')}, from {pending.pop(0)[0]}"
        repos.append({"full_name": f"{login}/{rname}", "description": descr,
                      "language": gh_lang(LANGS.pick(rng)) if rng.random() < 0.5 else rng.choice(["Python", "Go", "Rust", "Shell", "JavaScript", "TypeScript", "C", "Java"]),
                      "topics": rng.sample(TOPICS, rng.randrange(0, 3)), "fork": False, "owner": {"login": login},
                      "created_at": iso_ts(c, rng), "pushed_at": iso_ts(rng.randrange(c, LAST_MONTH + 1), rng)})
    for _ in range(min(6, int(rng.expovariate(1 / 1.2)))):
        full, descr, lang = POPULAR_REPOS[world.pop_pick.pick(rng)] if rng.random() < 0.7 else world.org_repos[world.org_pick.pick(rng)]
        name = full.split("/")[1]
        if any(r["full_name"] == f"{login}/{name}" for r in repos):
            continue
        c = rng.randrange(created, LAST_MONTH)
        repos.append({"full_name": f"{login}/{name}", "description": descr, "language": lang, "topics": [],
                      "fork": True, "owner": {"login": login}, "created_at": iso_ts(c, rng),
                      "pushed_at": iso_ts(rng.randrange(c, LAST_MONTH + 1), rng)})
    rng.shuffle(repos)
    bio = None
    if pending or rng.random() < 0.75:
        ctx = ctx_for(p, rng)
        bio = long_text(rng, ctx, pending, max(30, min(90, int(rng.gauss(42, 15)))), first_person=rng.random() < 0.6)
    has_name = rng.random() < 0.9
    email = None
    if rng.random() < 0.3:
        email = p["email"]
        p["emails"].append(email)
    blog = ""
    if rng.random() < 0.45:
        blog = p["url"]
        p["urls"].append(blog)
    tw = None
    if rng.random() < 0.2:
        tw = world.unique_handle(rng, login.replace("-", "_"), 15)
        p["handles"].append(tw)
    loc_k = rng.random()
    location = (f"{p['city']}, {p['country']}" if loc_k < 0.6 else p["city"] if loc_k < 0.75 else
                p["country"] if loc_k < 0.85 else None)
    uid = world.next_gh_id
    world.next_gh_id += rng.randrange(1, 4000)
    user = {"login": login, "id": uid, "node_id": f"U_{login}", "html_url": f"https://github.com/{login}",
            "type": "User", "site_admin": False, "name": p["full"] if has_name else None,
            "company": p["gh_company"] if rng.random() < 0.8 else None, "blog": blog, "location": location,
            "email": email, "hireable": True if rng.random() < 0.15 else None, "bio": bio,
            "twitter_username": tw, "public_repos": len(repos) + (rng.randrange(0, 20) if rng.random() < 0.3 else 0),
            "followers": int(rng.paretovariate(1.1) * 3) - 3, "following": int(rng.paretovariate(1.3) * 2) - 2,
            "created_at": iso_ts(created, rng)}
    if rng.random() < 0.7:
        user["repos"] = repos
        return json.dumps({"user": user, "repos": repos}, ensure_ascii=False, indent=2) + "\n", "json"
    user["repos"] = repos
    return json.dumps(user, ensure_ascii=False) + "\n", "jsonl"


RENDER = {"talent": render_talent, "resume": render_resume, "json_resume": render_json_resume, "github": render_github}
PREFIX = {"talent": "profile", "resume": "profile", "json_resume": "resume", "github": None}


# ---------------------------------------------------------------------------
# Main loop (streams one person at a time)
# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    args = ap.parse_args(argv)
    t0 = time.time()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    truth_path = out.resolve().parent / f"truth-{args.seed}-{args.count}.jsonl"
    world = World(args.seed, args.count)
    fmt_pick = Weighted([f for f, _ in FORMAT_WEIGHTS], [w for _, w in FORMAT_WEIGHTS])
    per_fmt, employers, titles, countries = Counter(), Counter(), Counter(), Counter()
    missing_phrases = 0
    with open(truth_path, "w", encoding="utf-8") as truth:
        for i in range(args.count):
            rng = random.Random(f"{args.seed}:{i}")
            fmt = fmt_pick.pick(rng)
            p = make_core(world, rng, i, fmt)
            text, ext = RENDER[fmt](world, rng, p)
            for phrase, _ in p["rare"]:
                if phrase not in text and json.dumps(phrase, ensure_ascii=False)[1:-1] not in text:
                    missing_phrases += 1
            sub = out / f"{i // FILES_PER_DIR:04d}"
            if i % FILES_PER_DIR == 0:
                sub.mkdir(exist_ok=True)
            name = f"{PREFIX[fmt]}_{i:06d}.{ext}" if PREFIX[fmt] else f"{p['login']}.{ext}"
            (sub / name).write_text(text, encoding="utf-8")
            # identifiers that appear in the file anyway
            if p["email"] in text and p["email"] not in p["emails"]:
                p["emails"].append(p["email"])
            if p["phone"] in text and p["phone"] not in p["phones"]:
                p["phones"].append(p["phone"])
            if p["url"] in text and p["url"] not in p["urls"]:
                p["urls"].append(p["url"])
            rec = {
                "id": i, "file": f"{sub.name}/{name}", "format": fmt, "full_name": p["full"],
                "full_name_in_file": p["full"] in " ".join(text.split()) or json.dumps(p["full"], ensure_ascii=False)[1:-1] in text,
                "first_name_in_file": p["first"] in text, "emails": sorted(set(p["emails"])),
                "phones": sorted(set(p["phones"])), "handles": sorted(set(p["handles"])),
                "urls": sorted(set(p["urls"])), "rare_phrases": [ph for ph, _ in p["rare"]],
                "employer": p["employer"], "employer_as_written": p["employer_written"],
                "employer_kind": p["employer_kind"], "title": p["title"], "country": p["country"],
                "city": p["city"], "institution": p["edu"][0][3],
            }
            truth.write(json.dumps(rec, ensure_ascii=False) + "\n")
            per_fmt[fmt] += 1
            employers[p["employer"]] += 1
            titles[p["title"]] += 1
            countries[p["country"]] += 1
    n = args.count
    top12 = sum(c for _, c in employers.most_common(12))
    single = sum(c for c in employers.values() if c == 1)
    print(f"wrote {n} profiles under {out} in {time.time() - t0:.1f}s; truth: {truth_path}")
    print("per format: " + ", ".join(f"{f}={per_fmt[f]} ({per_fmt[f] / n:.1%})" for f, _ in FORMAT_WEIGHTS))
    print(f"share of persons at the top 12 employers: {top12 / n:.1%}")
    print(f"share of persons at an employer held by one person only: {single / n:.1%}")
    print(f"distinct employers: {len(employers)}; distinct titles: {len(titles)}; distinct countries: {len(countries)}")
    print("top employers: " + ", ".join(f"{e} {c}" for e, c in employers.most_common(12)))
    print("top titles: " + ", ".join(f"{t} {c}" for t, c in titles.most_common(8)))
    print("top countries: " + ", ".join(f"{t} {c}" for t, c in countries.most_common(8)))
    if missing_phrases:
        print(f"WARNING: {missing_phrases} rare phrases not found in their file", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
