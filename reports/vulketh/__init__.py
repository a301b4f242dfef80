"""Rise of Tribes: The Vul'Keth Invasion's report parts: its searches, pictures, data tables and
main-job sections."""
