//! The report's words in each interface language (English, Spanish, French): one table per
//! language, the same fields in each, so a missing translation is a compile error and an empty one
//! fails the unit test below.
//!
//! Texts the models write (findings, recommendations, the combination rule) come from the shared
//! catalogue (`cardio_models::catalogue`) in the table's `catalogue` language.

use crate::accounts::settings::Language;

/// Every fixed text of the report.
#[derive(Debug)]
pub struct Strings {
    /// The catalogue language of the models' findings and recommendations.
    pub catalogue: cardio_models::catalogue::Language,
    /// Title under the product name.
    pub title: &'static str,
    /// "Doctor".
    pub doctor: &'static str,
    /// "Generated".
    pub generated: &'static str,
    /// Heading of the patient block.
    pub patient: &'static str,
    /// "Name".
    pub name: &'static str,
    /// "Date of birth".
    pub date_of_birth: &'static str,
    /// "Sex".
    pub sex: &'static str,
    /// Male, female, other.
    pub sexes: [&'static str; 3],
    /// "Phone".
    pub phone: &'static str,
    /// "Patient ID".
    pub patient_id: &'static str,
    /// "Medical history" (as recorded at intake).
    pub medical_history: &'static str,
    /// "Current medications".
    pub current_medications: &'static str,
    /// "Allergies".
    pub allergies: &'static str,
    /// No patient linked to the analysis.
    pub no_patient: &'static str,
    /// "years".
    pub years: &'static str,
    /// Heading of the clinical parameters.
    pub clinical_parameters: &'static str,
    /// No clinical parameters recorded.
    pub no_clinical: &'static str,
    /// Age, chest pain type, cholesterol, fasting blood sugar, exercise-induced angina, major
    /// vessels, thalassemia.
    pub parameter_names: [&'static str; 7],
    /// Typical angina, atypical angina, non-anginal pain, asymptomatic.
    pub chest_pain_types: [&'static str; 4],
    /// Normal, fixed defect, reversible defect.
    pub thalassemia_types: [&'static str; 3],
    /// Sex, resting blood pressure, resting ECG, maximal heart rate, ST depression, ST slope (the
    /// optional parameters, printed when entered).
    pub optional_parameter_names: [&'static str; 6],
    /// Resting ECG: normal, ST-T wave abnormality, left ventricular hypertrophy.
    pub resting_ecg_types: [&'static str; 3],
    /// ST slope: upsloping, flat, downsloping.
    pub st_slope_types: [&'static str; 3],
    /// "Yes".
    pub yes: &'static str,
    /// "No".
    pub no: &'static str,
    /// Heading of the combined result.
    pub combined_result: &'static str,
    /// "Overall risk".
    pub overall_risk: &'static str,
    /// "Driven by".
    pub driver: &'static str,
    /// "Based on" (how many of the four modalities the overall risk rests on).
    pub based_on: &'static str,
    /// "{n} of {total} modalities", with `{n}` and `{total}` replaced.
    pub of_modalities: &'static str,
    /// "Rule".
    pub rule: &'static str,
    /// Performed, inconclusive, not performed.
    pub statuses: [&'static str; 3],
    /// Not combined yet.
    pub not_combined: &'static str,
    /// ECG, PCG, PPG, clinical headings.
    pub modalities: [&'static str; 4],
    /// "Finding".
    pub finding: &'static str,
    /// "Confidence".
    pub confidence: &'static str,
    /// "Risk".
    pub risk: &'static str,
    /// Low, moderate, high.
    pub bands: [&'static str; 3],
    /// "Heart rate".
    pub heart_rate: &'static str,
    /// "Signal quality".
    pub quality: &'static str,
    /// "File".
    pub file: &'static str,
    /// "Recorded".
    pub recorded: &'static str,
    /// "Model".
    pub model: &'static str,
    /// "Computed from" (the clinical values a clinical result used).
    pub computed_from: &'static str,
    /// "version".
    pub version: &'static str,
    /// Heading of the recommendations.
    pub recommendations: &'static str,
    /// Heading of the review.
    pub review: &'static str,
    /// No review yet.
    pub not_reviewed: &'static str,
    /// "Reviewed by".
    pub reviewed_by: &'static str,
    /// "on" (a date).
    pub on: &'static str,
    /// Agreed with the model's finding.
    pub agreed: &'static str,
    /// Disagreed with the model's finding.
    pub disagreed: &'static str,
    /// "Comment".
    pub comment: &'static str,
    /// Heading of the disclaimer.
    pub disclaimer_heading: &'static str,
    /// The models' disclaimer (`cardio_models::prediction::DISCLAIMER` in English).
    pub model_disclaimer: &'static str,
    /// The web app's `results.disclaimer`.
    pub disclaimer: &'static str,
    /// The recording could not be read again.
    pub strip_unavailable: &'static str,
    /// ECG strip caption before the lead name.
    pub ecg_strip: &'static str,
    /// "Calibration 1 mV".
    pub calibration: &'static str,
    /// Heart sounds caption.
    pub pcg_strip: &'static str,
    /// Pulse caption.
    pub ppg_strip: &'static str,
    /// "pulse peaks".
    pub pulse_peaks: &'static str,
    /// "Page".
    pub page: &'static str,
    /// "of".
    pub of: &'static str,
    /// Heading of the analyses of a screening.
    pub results_by_modality: &'static str,
    /// "Screening".
    pub screening: &'static str,
    /// "Analysis".
    pub analysis: &'static str,
    /// Heading of the recording device's own interpretation.
    pub device_interpretation: &'static str,
    /// "Source" (who made the device's interpretation).
    pub device_source: &'static str,
    /// Says the statements are the device's, in its words, not confirmed by a doctor.
    pub device_note: &'static str,
    /// "Statements".
    pub device_statements: &'static str,
    /// "Measurements".
    pub device_measurements: &'static str,
    /// The device measurements' names, in the order of `cardio_formats::DEVICE_MEASUREMENT_KEYS`:
    /// heart rate, atrial rate, PR interval, QRS duration, QT, QTc, P duration, RR interval, PP
    /// interval, P axis, QRS axis, T axis.
    pub device_measurement_names: [&'static str; 12],
    /// Title of the 12-lead page.
    pub twelve_lead: &'static str,
    /// Says where the leads are drawn (the 12-lead page at the end of the report).
    pub twelve_lead_note: &'static str,
    /// The 12-lead page's caption: "Scale: 25 mm/s, 10 mm/mV".
    pub paper_scale: &'static str,
    /// Heading of Cardio's ECG measurements.
    pub ecg_measurements: &'static str,
    /// "Rate" (the ventricular rate).
    pub rate: &'static str,
    /// "P/QRS/T axes".
    pub axes: &'static str,
    /// "Interpretation confirmed by {name} on {date}", with `{name}` and `{date}` replaced.
    pub confirmed_by: &'static str,
    /// Heading of Cardio's statements before a doctor confirms them.
    pub unconfirmed: &'static str,
    /// No statement was made.
    pub no_statements: &'static str,
    /// Heading of the summary of a long recording read whole.
    pub holter_heading: &'static str,
    /// "Recording: {analysed} analysed, {noisy} too noisy", with both durations replaced.
    pub holter_recording: &'static str,
    /// "AF burden: {percent}".
    pub af_burden: &'static str,
    /// Heading of the episodes table (says their order).
    pub episodes_heading: &'static str,
    /// The episodes table's columns: episode, start, end, duration.
    pub episode_columns: [&'static str; 4],
    /// Episode kinds in words: AF, flutter, SVT run, VT run, pause, tachycardia, bradycardia,
    /// too noisy.
    pub episode_kinds: [&'static str; 8],
    /// "… and {n} more" (episodes left out of the table).
    pub more_episodes: &'static str,
    /// No episode was found in the recording.
    pub no_episodes: &'static str,
    /// Heart rate minimum, mean and maximum, with `{min}`, `{min_at}`, `{mean}`, `{max}` and
    /// `{max_at}` replaced.
    pub holter_rate: &'static str,
    /// Caption of the heart-rate trend plot.
    pub rate_trend: &'static str,
    /// The trend's time axis.
    pub time_from_start: &'static str,
    /// Caption of the longest AF episode's strip, `{at}` replaced.
    pub af_strip: &'static str,
    /// Caption of the longest pause's strip, `{duration}` and `{at}` replaced.
    pub pause_strip: &'static str,
    /// "Heart murmur" (the verdict over the auscultation sites).
    pub murmur: &'static str,
    /// Murmur verdicts: present, absent, unknown (the recordings do not allow a verdict).
    pub murmur_verdicts: [&'static str; 3],
    /// "heard at {sites}", `{sites}` replaced.
    pub heard_at: &'static str,
    /// "Auscultation site".
    pub site: &'static str,
    /// The four valve areas: AV, PV, TV, MV.
    pub site_names: [&'static str; 4],
    /// Murmur timings: early systolic, mid-systolic, holosystolic.
    pub timings: [&'static str; 3],
    /// "grade {grade}", `{grade}` replaced.
    pub grade: &'static str,
}

/// English.
pub const EN: Strings = Strings {
    catalogue: cardio_models::catalogue::Language::En,
    title: "Cardiovascular screening report",
    doctor: "Doctor",
    generated: "Generated",
    patient: "Patient",
    name: "Name",
    date_of_birth: "Date of birth",
    sex: "Sex",
    sexes: ["Male", "Female", "Other"],
    phone: "Phone",
    patient_id: "Patient ID",
    medical_history: "Medical history",
    current_medications: "Current medications",
    allergies: "Allergies",
    no_patient: "No patient is linked to this analysis.",
    years: "years",
    clinical_parameters: "Clinical parameters",
    no_clinical: "No clinical parameters recorded.",
    parameter_names: [
        "Age",
        "Chest pain type",
        "Cholesterol",
        "Fasting blood sugar",
        "Exercise-induced angina",
        "Major vessels colored by fluoroscopy",
        "Thalassemia",
    ],
    chest_pain_types: [
        "Typical angina",
        "Atypical angina",
        "Non-anginal pain",
        "Asymptomatic",
    ],
    thalassemia_types: ["Normal", "Fixed defect", "Reversible defect"],
    optional_parameter_names: [
        "Sex",
        "Resting blood pressure",
        "Resting ECG",
        "Maximum heart rate",
        "ST depression",
        "ST slope",
    ],
    resting_ecg_types: [
        "Normal",
        "ST-T wave abnormality",
        "Left ventricular hypertrophy",
    ],
    st_slope_types: ["Upsloping", "Flat", "Downsloping"],
    yes: "Yes",
    no: "No",
    combined_result: "Combined result",
    overall_risk: "Overall risk",
    driver: "Driven by",
    based_on: "Based on",
    of_modalities: "{n} of {total} modalities",
    rule: "Rule",
    statuses: ["Performed", "Inconclusive", "Not performed"],
    not_combined: "The results have not been combined yet.",
    modalities: [
        "ECG (electrocardiogram)",
        "PCG (heart sounds)",
        "PPG (pulse)",
        "Clinical parameters model",
    ],
    finding: "Finding",
    confidence: "Confidence",
    risk: "Risk",
    bands: ["Low", "Moderate", "High"],
    heart_rate: "Heart rate",
    quality: "Signal quality",
    file: "File",
    recorded: "Analysed",
    model: "Model",
    computed_from: "Computed from",
    version: "version",
    recommendations: "Recommendations",
    review: "Doctor's review",
    not_reviewed: "Not yet reviewed",
    reviewed_by: "Reviewed by",
    on: "on",
    agreed: "Agreed with the model's finding",
    disagreed: "Disagreed with the model's finding",
    comment: "Comment",
    disclaimer_heading: "Disclaimer",
    model_disclaimer: cardio_models::prediction::DISCLAIMER,
    disclaimer: "This analysis is for informational purposes only and does not replace professional medical advice.",
    strip_unavailable: "The recording could not be read again; its strip is unavailable.",
    ecg_strip: "ECG, lead",
    calibration: "1 mV",
    pcg_strip: "Heart sounds with S1 and S2 marked",
    ppg_strip: "Pulse wave with the detected peaks marked",
    pulse_peaks: "pulse peaks",
    page: "Page",
    of: "of",
    results_by_modality: "Results by modality",
    screening: "Screening",
    analysis: "Analysis",
    device_interpretation: "Device interpretation (unconfirmed)",
    device_source: "Source",
    device_note: "Statements as the recording device wrote them; not confirmed by a doctor and not part of Cardio's result.",
    device_statements: "Statements",
    device_measurements: "Measurements",
    device_measurement_names: [
        "Heart rate",
        "Atrial rate",
        "PR interval",
        "QRS duration",
        "QT",
        "QTc",
        "P duration",
        "RR interval",
        "PP interval",
        "P axis",
        "QRS axis",
        "T axis",
    ],
    twelve_lead: "12-lead ECG",
    twelve_lead_note: "The leads are drawn at true scale on the last page.",
    paper_scale: "Scale: 25 mm/s, 10 mm/mV",
    ecg_measurements: "Measurements",
    rate: "Rate",
    axes: "P/QRS/T axes",
    confirmed_by: "Interpretation confirmed by {name} on {date}",
    unconfirmed: "Computer interpretation — unconfirmed",
    no_statements: "No statement was made.",
    holter_heading: "Holter summary",
    holter_recording: "Recording: {analysed} analysed, {noisy} too noisy",
    af_burden: "AF burden: {percent}",
    episodes_heading: "Episodes (in time order)",
    episode_columns: ["Episode", "Start", "End", "Duration"],
    episode_kinds: [
        "Atrial fibrillation",
        "Atrial flutter",
        "SVT run",
        "VT run",
        "Pause",
        "Tachycardia",
        "Bradycardia",
        "Too noisy",
    ],
    more_episodes: "… and {n} more",
    no_episodes: "No episode was found in the recording.",
    holter_rate: "Heart rate: minimum {min} at {min_at}, mean {mean}, maximum {max} at {max_at} (median per minute)",
    rate_trend: "Heart-rate trend (median per minute, bpm)",
    time_from_start: "Time from the start of the recording",
    af_strip: "Longest AF episode, from {at} ·",
    pause_strip: "Longest pause ({duration}) at {at} ·",
    murmur: "Heart murmur",
    murmur_verdicts: ["Present", "Absent", "Unknown (the recordings do not allow a verdict)"],
    heard_at: "heard at {sites}",
    site: "Auscultation site",
    site_names: [
        "Aortic area (AV)",
        "Pulmonary area (PV)",
        "Tricuspid area (TV)",
        "Mitral area (MV)",
    ],
    timings: ["early systolic", "mid-systolic", "holosystolic"],
    grade: "grade {grade}",
};

/// Spanish.
pub const ES: Strings = Strings {
    catalogue: cardio_models::catalogue::Language::Es,
    title: "Informe de cribado cardiovascular",
    doctor: "Médico",
    generated: "Generado",
    patient: "Paciente",
    name: "Nombre",
    date_of_birth: "Fecha de nacimiento",
    sex: "Sexo",
    sexes: ["Hombre", "Mujer", "Otro"],
    phone: "Teléfono",
    patient_id: "ID del paciente",
    medical_history: "Antecedentes médicos",
    current_medications: "Medicación actual",
    allergies: "Alergias",
    no_patient: "Este análisis no está vinculado a ningún paciente.",
    years: "años",
    clinical_parameters: "Parámetros clínicos",
    no_clinical: "No hay parámetros clínicos registrados.",
    parameter_names: [
        "Edad",
        "Tipo de dolor torácico",
        "Colesterol",
        "Glucemia en ayunas",
        "Angina inducida por el ejercicio",
        "Vasos principales coloreados por fluoroscopia",
        "Talasemia",
    ],
    chest_pain_types: [
        "Angina típica",
        "Angina atípica",
        "Dolor no anginoso",
        "Asintomático",
    ],
    thalassemia_types: ["Normal", "Defecto fijo", "Defecto reversible"],
    optional_parameter_names: [
        "Sexo",
        "Presión arterial en reposo",
        "ECG en reposo",
        "Frecuencia cardiaca máxima",
        "Depresión del ST",
        "Pendiente del ST",
    ],
    resting_ecg_types: [
        "Normal",
        "Anomalía de la onda ST-T",
        "Hipertrofia ventricular izquierda",
    ],
    st_slope_types: ["Ascendente", "Plana", "Descendente"],
    yes: "Sí",
    no: "No",
    combined_result: "Resultado combinado",
    overall_risk: "Riesgo global",
    driver: "Determinado por",
    based_on: "Basado en",
    of_modalities: "{n} de {total} modalidades",
    rule: "Regla",
    statuses: ["Realizado", "No concluyente", "No realizado"],
    not_combined: "Los resultados aún no se han combinado.",
    modalities: [
        "ECG (electrocardiograma)",
        "FCG (sonidos cardíacos)",
        "PPG (pulso)",
        "Modelo de parámetros clínicos",
    ],
    finding: "Hallazgo",
    confidence: "Confianza",
    risk: "Riesgo",
    bands: ["Bajo", "Moderado", "Alto"],
    heart_rate: "Frecuencia cardíaca",
    quality: "Calidad de la señal",
    file: "Archivo",
    recorded: "Analizado",
    model: "Modelo",
    computed_from: "Calculado con",
    version: "versión",
    recommendations: "Recomendaciones",
    review: "Revisión del médico",
    not_reviewed: "Aún no revisado",
    reviewed_by: "Revisado por",
    on: "el",
    agreed: "De acuerdo con el hallazgo del modelo",
    disagreed: "En desacuerdo con el hallazgo del modelo",
    comment: "Comentario",
    disclaimer_heading: "Aviso",
    model_disclaimer: "Esta es una estimación de cribado de un modelo estadístico, no un diagnóstico; no sustituye el juicio clínico.",
    disclaimer: "Este análisis es solo informativo y no sustituye el consejo médico profesional.",
    strip_unavailable: "No se pudo volver a leer la grabación; su trazado no está disponible.",
    ecg_strip: "ECG, derivación",
    calibration: "1 mV",
    pcg_strip: "Sonidos cardíacos con S1 y S2 marcados",
    ppg_strip: "Onda de pulso con los picos detectados marcados",
    pulse_peaks: "picos de pulso",
    page: "Página",
    of: "de",
    results_by_modality: "Resultados por modalidad",
    screening: "Cribado",
    analysis: "Análisis",
    device_interpretation: "Interpretación del dispositivo (sin confirmar)",
    device_source: "Origen",
    device_note: "Afirmaciones tal como las escribió el dispositivo de registro; no confirmadas por un médico y ajenas al resultado de Cardio.",
    device_statements: "Afirmaciones",
    device_measurements: "Mediciones",
    device_measurement_names: [
        "Frecuencia cardíaca",
        "Frecuencia auricular",
        "Intervalo PR",
        "Duración del QRS",
        "QT",
        "QTc",
        "Duración de la onda P",
        "Intervalo RR",
        "Intervalo PP",
        "Eje P",
        "Eje QRS",
        "Eje T",
    ],
    twelve_lead: "ECG de 12 derivaciones",
    twelve_lead_note: "Las derivaciones se muestran a escala real en la última página.",
    paper_scale: "Escala: 25 mm/s, 10 mm/mV",
    ecg_measurements: "Mediciones",
    rate: "Frecuencia",
    axes: "Ejes P/QRS/T",
    confirmed_by: "Interpretación confirmada por {name} el {date}",
    unconfirmed: "Interpretación automática — sin confirmar",
    no_statements: "No se hizo ninguna afirmación.",
    holter_heading: "Resumen Holter",
    holter_recording: "Registro: {analysed} analizados, {noisy} demasiado ruidosos",
    af_burden: "Carga de FA: {percent}",
    episodes_heading: "Episodios (en orden cronológico)",
    episode_columns: ["Episodio", "Inicio", "Fin", "Duración"],
    episode_kinds: [
        "Fibrilación auricular",
        "Flúter auricular",
        "Racha de TSV",
        "Racha de TV",
        "Pausa",
        "Taquicardia",
        "Bradicardia",
        "Demasiado ruidoso",
    ],
    more_episodes: "… y {n} más",
    no_episodes: "No se encontró ningún episodio en el registro.",
    holter_rate: "Frecuencia cardiaca: mínima {min} a las {min_at}, media {mean}, máxima {max} a las {max_at} (mediana por minuto)",
    rate_trend: "Tendencia de la frecuencia cardiaca (mediana por minuto, lpm)",
    time_from_start: "Tiempo desde el inicio del registro",
    af_strip: "Episodio de FA más largo, desde {at} ·",
    pause_strip: "Pausa más larga ({duration}) a las {at} ·",
    murmur: "Soplo cardíaco",
    murmur_verdicts: ["Presente", "Ausente", "Desconocido (las grabaciones no permiten un veredicto)"],
    heard_at: "se oye en {sites}",
    site: "Foco de auscultación",
    site_names: [
        "Foco aórtico (AV)",
        "Foco pulmonar (PV)",
        "Foco tricuspídeo (TV)",
        "Foco mitral (MV)",
    ],
    timings: ["protosistólico", "mesosistólico", "holosistólico"],
    grade: "grado {grade}",
};

/// French.
pub const FR: Strings = Strings {
    catalogue: cardio_models::catalogue::Language::Fr,
    title: "Rapport de dépistage cardiovasculaire",
    doctor: "Médecin",
    generated: "Généré le",
    patient: "Patient",
    name: "Nom",
    date_of_birth: "Date de naissance",
    sex: "Sexe",
    sexes: ["Homme", "Femme", "Autre"],
    phone: "Téléphone",
    patient_id: "ID du patient",
    medical_history: "Antécédents médicaux",
    current_medications: "Traitements en cours",
    allergies: "Allergies",
    no_patient: "Aucun patient n'est lié à cette analyse.",
    years: "ans",
    clinical_parameters: "Paramètres cliniques",
    no_clinical: "Aucun paramètre clinique enregistré.",
    parameter_names: [
        "Âge",
        "Type de douleur thoracique",
        "Cholestérol",
        "Glycémie à jeun",
        "Angor d'effort",
        "Vaisseaux principaux colorés en fluoroscopie",
        "Thalassémie",
    ],
    chest_pain_types: [
        "Angor typique",
        "Angor atypique",
        "Douleur non angineuse",
        "Asymptomatique",
    ],
    thalassemia_types: ["Normal", "Défaut fixe", "Défaut réversible"],
    optional_parameter_names: [
        "Sexe",
        "Pression artérielle au repos",
        "ECG de repos",
        "Fréquence cardiaque maximale",
        "Sous-décalage du ST",
        "Pente du segment ST",
    ],
    resting_ecg_types: [
        "Normal",
        "Anomalie de l'onde ST-T",
        "Hypertrophie ventriculaire gauche",
    ],
    st_slope_types: ["Ascendante", "Plate", "Descendante"],
    yes: "Oui",
    no: "Non",
    combined_result: "Résultat combiné",
    overall_risk: "Risque global",
    driver: "Déterminé par",
    based_on: "Fondé sur",
    of_modalities: "{n} sur {total} modalités",
    rule: "Règle",
    statuses: ["Réalisé", "Non concluant", "Non réalisé"],
    not_combined: "Les résultats n'ont pas encore été combinés.",
    modalities: [
        "ECG (électrocardiogramme)",
        "PCG (bruits du cœur)",
        "PPG (pouls)",
        "Modèle des paramètres cliniques",
    ],
    finding: "Résultat",
    confidence: "Confiance",
    risk: "Risque",
    bands: ["Faible", "Modéré", "Élevé"],
    heart_rate: "Fréquence cardiaque",
    quality: "Qualité du signal",
    file: "Fichier",
    recorded: "Analysé le",
    model: "Modèle",
    computed_from: "Calculé à partir de",
    version: "version",
    recommendations: "Recommandations",
    review: "Avis du médecin",
    not_reviewed: "Pas encore revu",
    reviewed_by: "Revu par",
    on: "le",
    agreed: "D'accord avec le résultat du modèle",
    disagreed: "En désaccord avec le résultat du modèle",
    comment: "Commentaire",
    disclaimer_heading: "Avertissement",
    model_disclaimer: "Ceci est une estimation de dépistage par un modèle statistique, pas un diagnostic ; elle ne remplace pas le jugement clinique.",
    disclaimer: "Cette analyse est fournie à titre informatif et ne remplace pas l'avis d'un professionnel de santé.",
    strip_unavailable: "L'enregistrement n'a pas pu être relu ; son tracé n'est pas disponible.",
    ecg_strip: "ECG, dérivation",
    calibration: "1 mV",
    pcg_strip: "Bruits du cœur avec B1 (S1) et B2 (S2) marqués",
    ppg_strip: "Onde de pouls avec les pics détectés marqués",
    pulse_peaks: "pics de pouls",
    page: "Page",
    of: "sur",
    results_by_modality: "Résultats par modalité",
    screening: "Dépistage",
    analysis: "Analyse",
    device_interpretation: "Interprétation de l'appareil (non confirmée)",
    device_source: "Source",
    device_note: "Énoncés tels que l'appareil d'enregistrement les a écrits, non confirmés par un médecin et hors du résultat de Cardio.",
    device_statements: "Énoncés",
    device_measurements: "Mesures",
    device_measurement_names: [
        "Fréquence cardiaque",
        "Fréquence auriculaire",
        "Intervalle PR",
        "Durée du QRS",
        "QT",
        "QTc",
        "Durée de l'onde P",
        "Intervalle RR",
        "Intervalle PP",
        "Axe de P",
        "Axe du QRS",
        "Axe de T",
    ],
    twelve_lead: "ECG 12 dérivations",
    twelve_lead_note: "Les dérivations sont tracées à l'échelle réelle à la dernière page.",
    paper_scale: "Échelle : 25 mm/s, 10 mm/mV",
    ecg_measurements: "Mesures",
    rate: "Fréquence",
    axes: "Axes P/QRS/T",
    confirmed_by: "Interprétation confirmée par {name} le {date}",
    unconfirmed: "Interprétation automatique — non confirmée",
    no_statements: "Aucun énoncé n'a été fait.",
    holter_heading: "Résumé Holter",
    holter_recording: "Enregistrement : {analysed} analysés, {noisy} trop bruités",
    af_burden: "Charge de FA : {percent}",
    episodes_heading: "Épisodes (par ordre chronologique)",
    episode_columns: ["Épisode", "Début", "Fin", "Durée"],
    episode_kinds: [
        "Fibrillation atriale",
        "Flutter atrial",
        "Salve de TSV",
        "Salve de TV",
        "Pause",
        "Tachycardie",
        "Bradycardie",
        "Trop bruité",
    ],
    more_episodes: "… et {n} de plus",
    no_episodes: "Aucun épisode n'a été trouvé dans l'enregistrement.",
    holter_rate: "Fréquence cardiaque : minimum {min} à {min_at}, moyenne {mean}, maximum {max} à {max_at} (médiane par minute)",
    rate_trend: "Tendance de la fréquence cardiaque (médiane par minute, bpm)",
    time_from_start: "Temps depuis le début de l'enregistrement",
    af_strip: "Épisode de FA le plus long, à partir de {at} ·",
    pause_strip: "Pause la plus longue ({duration}) à {at} ·",
    murmur: "Souffle cardiaque",
    murmur_verdicts: ["Présent", "Absent", "Inconnu (les enregistrements ne permettent pas de conclure)"],
    heard_at: "entendu en {sites}",
    site: "Foyer d'auscultation",
    site_names: [
        "Foyer aortique (AV)",
        "Foyer pulmonaire (PV)",
        "Foyer tricuspide (TV)",
        "Foyer mitral (MV)",
    ],
    timings: ["protosystolique", "mésosystolique", "holosystolique"],
    grade: "grade {grade}",
};

/// The table of a language.
pub fn of(language: Language) -> &'static Strings {
    match language {
        Language::En => &EN,
        Language::Es => &ES,
        Language::Fr => &FR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text of a table, for checks that apply to all of them.
    fn all(s: &Strings) -> Vec<&'static str> {
        let mut texts = vec![
            s.title,
            s.doctor,
            s.generated,
            s.patient,
            s.name,
            s.date_of_birth,
            s.sex,
            s.phone,
            s.patient_id,
            s.medical_history,
            s.current_medications,
            s.allergies,
            s.no_patient,
            s.years,
            s.clinical_parameters,
            s.no_clinical,
            s.yes,
            s.no,
            s.combined_result,
            s.overall_risk,
            s.driver,
            s.based_on,
            s.of_modalities,
            s.rule,
            s.not_combined,
            s.finding,
            s.confidence,
            s.risk,
            s.heart_rate,
            s.quality,
            s.file,
            s.recorded,
            s.model,
            s.computed_from,
            s.version,
            s.recommendations,
            s.review,
            s.not_reviewed,
            s.reviewed_by,
            s.on,
            s.agreed,
            s.disagreed,
            s.comment,
            s.disclaimer_heading,
            s.model_disclaimer,
            s.disclaimer,
            s.strip_unavailable,
            s.ecg_strip,
            s.calibration,
            s.pcg_strip,
            s.ppg_strip,
            s.pulse_peaks,
            s.page,
            s.of,
            s.results_by_modality,
            s.screening,
            s.analysis,
            s.device_interpretation,
            s.device_source,
            s.device_note,
            s.device_statements,
            s.device_measurements,
            s.twelve_lead,
            s.twelve_lead_note,
            s.paper_scale,
            s.ecg_measurements,
            s.rate,
            s.axes,
            s.confirmed_by,
            s.unconfirmed,
            s.no_statements,
            s.holter_heading,
            s.holter_recording,
            s.af_burden,
            s.episodes_heading,
            s.more_episodes,
            s.no_episodes,
            s.holter_rate,
            s.rate_trend,
            s.time_from_start,
            s.af_strip,
            s.pause_strip,
        ];
        texts.extend(s.sexes);
        texts.extend(s.parameter_names);
        texts.extend(s.chest_pain_types);
        texts.extend(s.thalassemia_types);
        texts.extend(s.optional_parameter_names);
        texts.extend(s.resting_ecg_types);
        texts.extend(s.st_slope_types);
        texts.extend(s.statuses);
        texts.extend(s.modalities);
        texts.extend(s.bands);
        texts.extend(s.device_measurement_names);
        texts.extend(s.episode_columns);
        texts.extend(s.episode_kinds);
        texts
    }

    #[test]
    fn every_language_has_every_string() {
        for language in [Language::En, Language::Es, Language::Fr] {
            let texts = all(of(language));
            assert_eq!(texts.len(), all(&EN).len());
            for text in texts {
                assert!(!text.trim().is_empty(), "{language:?} has an empty text");
            }
        }
    }

    #[test]
    fn spanish_and_french_are_translated_not_copied() {
        for table in [&ES, &FR] {
            assert_ne!(table.title, EN.title);
            assert_ne!(table.not_reviewed, EN.not_reviewed);
            assert_ne!(table.disclaimer, EN.disclaimer);
            assert_ne!(table.bands, EN.bands);
        }
    }

    #[test]
    fn the_english_disclaimers_are_the_models_and_the_web_apps() {
        assert_eq!(EN.model_disclaimer, cardio_models::prediction::DISCLAIMER);
        let web: serde_json::Value =
            serde_json::from_str(include_str!("../../../../../web/src/i18n/en.json")).unwrap();
        assert_eq!(web["results"]["disclaimer"], EN.disclaimer);
        for (table, file) in [
            (&ES, include_str!("../../../../../web/src/i18n/es.json")),
            (&FR, include_str!("../../../../../web/src/i18n/fr.json")),
        ] {
            let web: serde_json::Value = serde_json::from_str(file).unwrap();
            assert_eq!(web["results"]["disclaimer"], table.disclaimer);
        }
    }
}
